/**
 * A graph's DBOS workflow: the mini engine's `Run` driven superstep by superstep, each task a DBOS step
 * (`_step.ts`), the merge, the routers and the kernel's checks in the workflow itself. DBOS replays the
 * workflow after a crash, so everything here must decide the same way again from the same recorded
 * steps: it does, because the kernel is pure and routers read only the state (keep them deterministic;
 * put anything random or external in a node).
 *
 * At an interrupt (static, or a node's `interrupt()` call) the workflow records where it stands as an
 * event and waits for the resume message; at END or a failure it records the outcome as the same kind
 * of event and returns it. A node that paused is recorded as a step too, so a replay pauses again at
 * the same place without running it, and the superstep's finished tasks keep their recorded updates.
 */
import { DBOS } from "@dbos-inc/dbos-sdk";
import {
  reroutes,
  Run,
  schedule,
  staticPause,
  SuperstepPaused,
  graphView,
  type ExecutableGraph,
  type RunSnapshot,
  type State,
} from "../engine/_kernel.js";
import { InterruptError, type JsonValue } from "../engine/index.js";
import type { Step } from "../engine/index.js";
import { GraphExecutionError } from "../errors.js";
import { recordError, type DBOSInterrupt, type Outcome, type PausedAt, type RecordedGraphError, type RecordedRun } from "./_outcome.js";
import { DurableHost, type ChildAt, type ChildStarter } from "./_child-frame.js";
import { durableTask } from "./_step.js";
import { pausedAt, restoredSnapshot, type ContinuedFrom } from "./_paused-at.js";

/** The bounds a run was started with; stored with the workflow, so a recovered run keeps them. */
export interface StoredOptions {
  readonly maxSteps?: number;
  readonly recursionLimit?: number;
  readonly maxConcurrency?: number;
  /**
   * `startOnDBOS` checked the input before starting the workflow, and passed the state schema's output:
   * the run does not check it again. Absent for an input enqueued otherwise (a `DBOSClient`), which the run checks.
   */
  readonly checked?: true;
}

/**
 * What a resume message carries: an update merged as if `asNode` had returned it, the answers to the
 * run's pending `interrupt()` calls, and `goto`: the nodes to run next instead of the pending ones.
 */
export interface ResumeMessage {
  readonly update?: State;
  /** The node the update counts as (its router runs again on the updated state); none: the pending nodes stay. */
  readonly asNode?: string;
  /** Resume values by interrupt id, for a run paused inside nodes (checked against the pending interrupts by the sender). */
  readonly resumes?: Readonly<Record<string, JsonValue>>;
  /** Replaces the pending tasks, and with them their interrupts. */
  readonly goto?: readonly string[];
}

/** The API named in errors raised inside the workflow. */
export const API = "runOnDBOS";

/** The event holding the number of the run's latest stop. */
export const LATEST_EVENT = "tsg.latest";
/** The event recording stop number `pause`. */
export const pauseEvent = (pause: number): string => `tsg.pause.${pause}`;
/** The message topic that resumes stop number `pause`. */
export const resumeTopic = (pause: number): string => `tsg.resume.${pause}`;

/** How long one `recv` waits before waiting again: a paused run waits as long as it takes. */
const RECV_SECONDS = 24 * 60 * 60;

/**
 * The workflow function of `graph`: `(input, options) => Outcome`. Every stop is recorded as an event,
 * since any node may call `interrupt()`: a caller waits on the events, never on a workflow that waits.
 * `startChild` runs a subgraph task's child as a child workflow (`_child.ts`). With `from`, the workflow
 * continues a run an older version's worker paused (`continue.ts`): it starts where that run stood, and
 * pauses there first.
 */
export function graphWorkflow(graph: object, executable: ExecutableGraph, startChild: () => ChildStarter) {
  const settings = graphView(graph).settings;
  return async (input: State, options: StoredOptions, from?: ContinuedFrom): Promise<Outcome> => {
    let pause = 0;
    const stop = async (outcome: Outcome): Promise<Outcome> => {
      // The latest stop's number first: a caller that saw the stop's event can resume it at once.
      await DBOS.setEvent(LATEST_EVENT, outcome.pause);
      await DBOS.setEvent(pauseEvent(outcome.pause), outcome);
      return outcome;
    };
    const steps: Step<State>[] = [];
    /** The nodes of the last superstep: an update without `asNode` counts as the one that ran last. */
    let last: readonly string[] = [];
    let run: Run;
    try {
      const interrupts = new DurableHost([], DBOS.workflowID as string, startChild());
      const { checked, ...bounds } = options;
      const settingsOfRun = { ...bounds, api: API, runTask: durableTask, threadId: DBOS.workflowID as string, interrupts };
      run =
        from === undefined
          ? new Run(executable, input, settingsOfRun, checked === true ? "checked" : "input")
          : Run.restore(executable, restoredSnapshot(from), settingsOfRun);
      await run.begin();
      /** Where the last superstep's routes begin: an update counted as the node that ran last computes them again. */
      let routesBefore = from?.routesBefore ?? 0;
      /** A continued run's first stop: where the run it continues stood. */
      let continued = from?.interrupt;
      if (from !== undefined) last = from.last;
      if (from?.resumes !== undefined) interrupts.answer(from.resumes);
      /**
       * Applies a resume message. At a static pause the update counts as `asNode` (its router runs
       * again); inside nodes it is merged and the paused superstep runs again with the answers given,
       * its finished tasks' updates kept. A goto replaces the pending tasks, and with them their interrupts.
       */
      const resume = async (message: ResumeMessage, paused?: SuperstepPaused): Promise<void> => {
        if (paused !== undefined) {
          if (message.update !== undefined) await run.commitAs(undefined, message.update);
        } else if (message.update !== undefined || message.asNode !== undefined) {
          if (message.asNode !== undefined && reroutes(last, message.asNode)) {
            run = Run.restore(executable, { ...run.snapshot(), routes: run.routes.slice(0, routesBefore) }, settingsOfRun);
          }
          await run.commitAs(message.asNode, message.update ?? {});
        }
        if (message.goto !== undefined) {
          interrupts.answer({}); // and with the pending tasks, their paused children
          const tasks = schedule(
            executable,
            message.goto.map((node) => ({ node, sent: false })),
          );
          run = Run.restore(executable, { ...run.snapshot(), tasks }, settingsOfRun);
        } else if (paused !== undefined) {
          interrupts.answer({ ...interrupts.resumes, ...message.resumes }, paused.interrupts);
          run = Run.restore(executable, run.snapshot(), settingsOfRun, paused.writes);
        }
      };
      /** Where the run stood when its superstep last paused inside nodes: a resume its schema refuses leaves it there. */
      let inside:
        | {
            readonly snapshot: RunSnapshot;
            readonly paused: SuperstepPaused;
            readonly resumes: Readonly<Record<string, unknown>>;
            /** Where its paused subgraph tasks' children stood. */
            readonly children: ReadonlyMap<string, ChildAt>;
          }
        | undefined;
      let refused: RecordedGraphError | undefined;
      /** Resuming is the go-ahead: the superstep the run paused at runs at once, not pausing before its nodes again. */
      let goAhead = false;
      /** The nodes of the superstep just committed, until the boundary after it is decided (none at the start or after a resume). */
      let ran: readonly string[] = [];
      for (;;) {
        // One static-interrupt decision per boundary: after the last superstep's nodes, else before the next one's.
        const resumed = continued;
        continued = undefined;
        const boundary =
          resumed === undefined ? staticPause(settings, ran, run.pending ?? [], goAhead) : resumed.when === "during" ? undefined : resumed;
        goAhead = false;
        ran = [];
        if (boundary !== undefined) await resume(await paused(stop, run, steps, last, boundary, pause++, pausedAt(run, routesBefore)));
        routesBefore = run.routes.length;
        // A fresh subgraph task's namespace names the superstep it runs in (a thread's names its checkpoint).
        interrupts.checkpointId = String(run.supersteps + 1);
        let superstep: Step<State>[] | undefined;
        try {
          // A continued run paused inside nodes pauses there again, its finished tasks' updates kept.
          if (resumed?.when === "during") throw new SuperstepPaused(resumed.interrupts ?? [], from?.writes ?? []);
          superstep = await run.superstep();
        } catch (error) {
          goAhead = true;
          const refusal = inside === undefined ? undefined : refusedResume(error);
          if (inside !== undefined && refusal !== undefined) {
            // As on a thread, a refused answer changes nothing: the run pauses again where it stood, and the caller hears why.
            refused = recordError(refusal);
            interrupts.answer(inside.resumes, inside.paused.interrupts);
            interrupts.pausedChildren = new Map(inside.children);
            run = Run.restore(executable, inside.snapshot, settingsOfRun, inside.paused.writes);
            continue;
          }
          if (!(error instanceof SuperstepPaused)) throw error;
          inside = { snapshot: run.snapshot(), paused: error, resumes: interrupts.resumes, children: new Map(interrupts.pausedChildren) };
          const nodes = [...new Set(error.interrupts.map((pending) => pending.node))];
          const during: DBOSInterrupt = { when: "during", nodes, interrupts: error.interrupts };
          const at = pausedAt(run, routesBefore, { writes: error.writes, resumes: interrupts.resumes });
          const message = await paused(stop, run, steps, last, during, pause++, at, refused);
          refused = undefined;
          await resume(message, error);
          continue;
        }
        if (superstep === undefined) break;
        // The answers stand until their superstep commits; the next superstep's interrupts have other ids.
        interrupts.answer({});
        inside = undefined;
        steps.push(...superstep);
        last = superstep.map((step) => step.node);
        ran = last;
      }
    } catch (error) {
      return stop({ status: "failed", pause, error: recordError(error) });
    }
    return stop({ status: "done", pause, run: recordedRun(run, steps) });
  };
}

/** Records the stop and waits for its resume message. */
async function paused(
  stop: (outcome: Outcome) => Promise<Outcome>,
  run: Run,
  steps: readonly Step<State>[],
  last: readonly string[],
  interrupt: DBOSInterrupt,
  pause: number,
  at: PausedAt,
  refused?: RecordedGraphError,
): Promise<ResumeMessage> {
  const outcome = { status: "interrupted", pause, run: recordedRun(run, steps), interrupt, last, at } as const;
  await stop(refused === undefined ? outcome : { ...outcome, refused });
  for (;;) {
    const message = await DBOS.recv<ResumeMessage>(resumeTopic(pause), { timeoutSeconds: RECV_SECONDS });
    if (message !== null) return message;
  }
}

/** The resume value a node's interrupt schema refused (`INVALID_RESUME`), when that is why the superstep failed. */
export function refusedResume(error: unknown): InterruptError | undefined {
  const cause = error instanceof GraphExecutionError ? error.cause : error;
  return cause instanceof InterruptError && cause.code === "INVALID_RESUME" ? cause : undefined;
}

function recordedRun(run: Run, steps: readonly Step<State>[]): RecordedRun {
  return { state: run.state, trace: run.trace, steps: [...steps], routes: run.routes, supersteps: run.supersteps };
}
