/**
 * In-node interrupts, as LangGraph's: a node calls `interrupt(payload)`; the run pauses
 * (`status: "interrupted"`, each interrupt's id, node and payload saved with the thread); a person
 * answers with `invoke(new Command({ resume }), { threadId })`; the node runs again from its start, and
 * this time `interrupt` returns the answer. `defineInterrupt` declares the payload and answer types
 * once, so the node's call returns the answer's type and a resume of the wrong type does not compile.
 */
import { describeValue } from "../_describe.js";
import { currentInterruptFrame, InterruptError } from "./interrupt-scope.js";
import { NodePaused } from "./node-paused.js";
import { Command, type AnyCommand } from "./command.js";
import { findNonJson } from "./json-check.js";
import type { JsonValue } from "./checkpointer.js";
import type { JsonCheck, JsonTyped } from "./json-shape.js";
import type { StandardSchemaV1 } from "./state-schema.js";

// The class lives in command.ts, so the kernel reads it without loading the interrupt machinery; re-exported for the files that import it from here.
export { Command, type AnyCommand };

/** Whether an input is a {@link Command}. */
export function isCommand(value: unknown): value is AnyCommand {
  return value instanceof Command;
}

/**
 * Pauses the run until a person answers: the first time, the node stops here and the run resolves
 * `status: "interrupted"` with `payload` (saved with the thread); on resume the node runs again from its
 * start and the call returns the resume value. Works in sync and async nodes, without the context
 * argument; several calls in one node are answered in order. Needs a threaded run (`{ threadId }`).
 * Prefer {@link defineInterrupt}, which types the answer.
 *
 * @example
 * ```ts
 * const review = (s: { draft: string }) => {
 *   const answer = interrupt<string>({ question: "Publish this?", draft: s.draft });
 *   return { approved: answer === "yes" };
 * };
 * ```
 */
export function interrupt<Resume = unknown>(payload: JsonValue): Resume {
  return ask(payload, undefined, "interrupt") as Resume;
}

/**
 * A Standard Schema (zod 4, valibot, arktype…) whose output is `T`: what `defineInterrupt({ schema })`
 * checks resume values with. The same `@standard-schema/spec` type a graph's state schema is.
 */
export type ResumeSchema<T> = StandardSchemaV1<unknown, T>;

/**
 * What `compile({ interrupts })` takes: a `defineInterrupt` value (its name, and its answer schema
 * when it has one).
 *
 * @example
 * ```ts
 * const approval = defineInterrupt<{ draft: string }, boolean>("approval", { schema: z.boolean() });
 * const declared: DeclaredInterrupt = approval;
 * ```
 */
export interface DeclaredInterrupt {
  /** The name pending interrupts carry. */
  readonly interruptName: string;
  /** The Standard Schema each answer is checked with, when `defineInterrupt` was given one. */
  readonly answerSchema?: ResumeSchema<unknown> | undefined;
}

/**
 * A typed interrupt: call it in a node with its payload to get the answer, typed; resume a thread with
 * `.resume(answer)`, which does not compile for an answer of another type.
 *
 * @example
 * ```ts
 * const approval = defineInterrupt<{ draft: string }, { approved: boolean }>("approval");
 * const { approved } = approval({ draft: "…" }); // in a node
 * await graph.invoke(approval.resume({ approved: true }), { threadId: "t1", checkpointer });
 * ```
 */
export interface InterruptDefinition<Payload, Answer> {
  (payload: Payload): Answer;
  /** The name pending interrupts carry (`PendingInterrupt.name`). */
  readonly interruptName: string;
  /**
   * The Standard Schema answers are checked with (`defineInterrupt(name, { schema })`), or `undefined`.
   * Declare the interrupt on its graph (`compile({ interrupts: [it] })`) and `exploreGraph` draws its
   * answers from this schema.
   */
  readonly answerSchema: ResumeSchema<Answer> | undefined;
  /** A Command answering the one pending interrupt. */
  resume(answer: Answer): Command<Answer>;
  /** A Command answering several pending interrupts, by id. */
  resumeById(answers: Readonly<Record<string, Answer>>): Command<Readonly<Record<string, Answer>>>;
}

/**
 * Declares an interrupt's payload and answer types once; with a Standard Schema (zod 4…), each answer
 * is checked when the node receives it, and a wrong one fails with `INVALID_RESUME` naming the interrupt.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * const approval = defineInterrupt<{ draft: string }, { approved: boolean }>("approval", {
 *   schema: z.object({ approved: z.boolean() }),
 * });
 * ```
 */
export function defineInterrupt<Payload, Answer>(
  name: string & JsonCheck<Payload, "defineInterrupt", "the payload">,
  options?: { readonly schema?: ResumeSchema<Answer> },
): InterruptDefinition<Payload, Answer>;
/**
 * A payload already typed as JSON (`P extends JsonValue` in a generic helper, whose structural check
 * cannot be read until `P` is known): second, so a concrete payload's error stays the first signature's.
 *
 * @example
 * ```ts
 * const named = <P extends JsonValue>(name: string) => defineInterrupt<P, boolean>(name);
 * ```
 */
export function defineInterrupt<Payload extends JsonTyped, Answer>(
  name: string,
  options?: { readonly schema?: ResumeSchema<Answer> },
): InterruptDefinition<Payload, Answer>;
export function defineInterrupt<Payload, Answer>(
  name: string,
  options: { readonly schema?: ResumeSchema<Answer> } = {},
): InterruptDefinition<Payload, Answer> {
  const { schema } = options;
  const call = (payload: Payload): Answer => {
    const answer = ask(payload, name, name);
    if (schema === undefined) return answer as Answer;
    try {
      return checked(schema, answer, name);
    } catch (error) {
      // A refused answer is not one to keep when the superstep fails (it fails with INVALID_RESUME, or a sibling's error).
      currentInterruptFrame()?.refuse?.();
      throw error;
    }
  };
  return Object.assign(call, {
    interruptName: name,
    answerSchema: schema,
    resume: (answer: Answer) => new Command<Answer>({ resume: answer }),
    resumeById: (answers: Readonly<Record<string, Answer>>) => new Command({ resume: answers }),
  });
}

function ask(payload: unknown, name: string | undefined, api: string): unknown {
  const frame = currentInterruptFrame();
  if (frame === undefined) {
    throw new InterruptError(
      "INTERRUPT_OUTSIDE_THREAD",
      `${api}: called outside a threaded run, where the run cannot pause. Call it in a node of a graph run with ` +
        `invoke(input, { threadId, checkpointer }) (or stream); a plain run, XState and the LangGraph export without a checkpointer cannot pause.`,
    );
  }
  const problem = findNonJson(payload, "payload");
  if (problem !== undefined) {
    throw new InterruptError(
      "INVALID_RESUME",
      `${api}: the payload must be JSON, to be saved with the thread: ${problem.path} is ${problem.what}.`,
    );
  }
  // findNonJson just read the whole payload: it is JSON.
  const outcome = frame.call(payload as JsonValue, name);
  if (outcome.resumed) return outcome.value;
  throw new NodePaused(`${api}: the node paused, waiting for a resume value`);
}

function checked<T>(schema: ResumeSchema<T>, answer: unknown, name: string): T {
  const result = schema["~standard"].validate(answer);
  if (result instanceof Promise) {
    throw new InterruptError("INVALID_RESUME", `${name}: its schema validates asynchronously; an interrupt's schema must be synchronous.`);
  }
  if (result.issues === undefined) return result.value;
  throw new InterruptError(
    "INVALID_RESUME",
    `${name}: the resume value ${describeValue(answer)} does not fit its schema: ${result.issues.map((issue) => issue.message).join("; ")}. ` +
      `Resume the thread again with a value of the declared type.`,
  );
}
