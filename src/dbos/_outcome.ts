/**
 * What a graph's workflow records at each stop (an interrupt, END, a failure) and returns at the end:
 * plain data that DBOS stores, turned back into the mini engine's result or error by whichever process
 * reads it.
 */
import {
  GraphError,
  GraphExecutionError,
  InvalidOptionError,
  type InvalidOptionCode,
  type ExecutionContext,
  type PendingWrite,
} from "../errors.js";
import { errorOfCode, type State, type SuperstepPaused, type Task } from "../engine/_kernel.js";
import { InterruptError, type GraphStamp, type JsonValue, type PendingInterrupt, type RouteTaken } from "../engine/index.js";
import { messageOf } from "../_describe.js";
import type { InterruptErrorCode } from "../engine/index.js";
import type { Step } from "../engine/index.js";
import { DBOSRunError } from "./errors.js";
import { RecordedError } from "./_recorded-error.js";

/** The run so far, as the mini engine reports it. */
export interface RecordedRun {
  readonly state: State;
  readonly trace: readonly string[];
  readonly steps: readonly Step<State>[];
  readonly routes: readonly RouteTaken[];
  readonly supersteps: number;
}

/**
 * Where a run paused, as a thread pauses: before some nodes started, after some nodes ran
 * (`interruptBefore` / `interruptAfter`), or during some nodes, which called `interrupt()`.
 */
export interface DBOSInterrupt {
  readonly when: "before" | "after" | "during";
  /** The nodes it paused at. */
  readonly nodes: readonly string[];
  /** For `during`: each `interrupt()` call waiting for a resume value (its id, node and payload). */
  readonly interrupts?: readonly PendingInterrupt[];
}

/** A failure as recorded: the error's class, code, message and context. */
export interface RecordedGraphError {
  readonly name: string;
  readonly code: string;
  readonly message: string;
  readonly node?: string;
  readonly state?: State;
  readonly trace?: readonly string[];
  readonly path?: readonly string[];
  readonly attempts?: readonly string[];
  readonly pendingWrites?: readonly PendingWrite[];
  readonly interruptId?: string;
}

/**
 * What a stop records of the run besides its state, trace and routes: the rest of its snapshot, and its
 * graph, so that a worker of a later version can continue it (`_paused-at.ts`, `continue.ts`).
 */
export interface PausedAt {
  /** The graph that recorded it: its `compile({ version })` and spec hash. */
  readonly graph: GraphStamp;
  /** The tasks of the superstep it paused before or in (a `Send`'s Command input in its stored form). */
  readonly tasks: readonly Task[];
  readonly joins: readonly (readonly string[])[];
  readonly deferred?: readonly Task[];
  /** Where the last superstep's routes begin: an update counted as one of its nodes routes again from there. */
  readonly routesBefore: number;
  /** Paused inside nodes: the updates of the superstep's tasks that finished (they do not run again). */
  readonly writes?: SuperstepPaused["writes"];
  /** Paused inside nodes: the answers given so far (a resume that answered some of the interrupts). */
  readonly resumes?: Readonly<Record<string, JsonValue>>;
}

/** One stop of a run: `pause` counts the stops before it. */
export type Outcome =
  | { readonly status: "done"; readonly pause: number; readonly run: RecordedRun }
  | {
      readonly status: "interrupted";
      readonly pause: number;
      readonly run: RecordedRun;
      readonly interrupt: DBOSInterrupt;
      /** The nodes of the last superstep, which an update without `asNode` counts as. */
      readonly last: readonly string[];
      /** Why the resume that led here was refused (an interrupt's schema, `INVALID_RESUME`): the run paused again where it stood. */
      readonly refused?: RecordedGraphError;
      /** The rest of where it stands, for a later version's worker to continue it (absent on stops recorded before this was). */
      readonly at?: PausedAt;
    }
  | { readonly status: "failed"; readonly pause: number; readonly error: RecordedGraphError };

/** The error as data; the same class and fields come back from {@link reviveError}. */
export function recordError(error: unknown): RecordedGraphError {
  if (error instanceof GraphExecutionError) {
    return {
      name: error.name,
      code: error.code,
      message: error.message,
      node: error.node,
      state: error.state,
      trace: error.trace,
      path: error.path,
      attempts: error.attempts.map(messageOf),
      pendingWrites: error.pendingWrites,
    };
  }
  if (error instanceof InterruptError) {
    const { name, code, message, interruptId } = error;
    return { name, code, message, ...(interruptId === undefined ? {} : { interruptId }) };
  }
  if (error instanceof GraphError) return { name: error.name, code: error.code, message: error.message };
  return { name: "DBOSRunError", code: "DBOS_RUN_STOPPED", message: `runOnDBOS: the run's workflow failed: ${messageOf(error)}` };
}

/** The error a recorded failure stands for, of the class the mini engine raises. */
export function reviveError(recorded: RecordedGraphError, workflowId: string): GraphError {
  const { code, message } = recorded;
  if (recorded.node !== undefined) {
    const context: ExecutionContext = {
      node: recorded.node,
      state: recorded.state ?? {},
      trace: recorded.trace ?? [],
      path: recorded.path ?? [recorded.node],
      attempts: (recorded.attempts ?? []).map((attempt) => new RecordedError(attempt)),
      pendingWrites: recorded.pendingWrites ?? [],
    };
    return errorOfCode(code as GraphExecutionError["code"], message, context);
  }
  if (recorded.name === "InterruptError") {
    const { interruptId } = recorded;
    return new InterruptError(code as InterruptErrorCode, message, interruptId === undefined ? {} : { interruptId });
  }
  if (recorded.name === "InvalidOptionError") return new InvalidOptionError(message, { code: code as InvalidOptionCode });
  return new DBOSRunError("DBOS_RUN_STOPPED", message, { workflowId });
}
