/**
 * Type-level only: what `invoke` and `stream` take and give, read from their options. A run without a
 * thread starts from its input, so it takes the whole state; a threaded run merges its input into the
 * thread's state through the reducers, so it takes a partial state (a chat's new message alone), `null`
 * to resume, or a `Command`. One signature each, not overloads: with overloads a wrong input was
 * reported against the last overload tried (TS2769, or a list of fields the thread already holds).
 */
import type { End } from "../spec.js";
import type { Command } from "./interrupt.js";
import type { RunOptions, RunResult, StreamMode, StreamOptions } from "./run-types.js";
import type { ThreadRunOptions, ThreadRunResult } from "./threads/types.js";

/**
 * The input of a threaded run: a partial state, each value of its field's type (with
 * `exactOptionalPropertyTypes`, `undefined` only for an optional field), merged into the thread's state
 * through the reducers; `null` to resume; or a `Command` (a resume answer, an update, a goto to one of
 * the graph's nodes `N`, or END).
 *
 * @example
 * ```ts
 * const next: ThreadInput<Chat> = { messages: [{ role: "user", content: "and tomorrow?" }] };
 * await chat.invoke(next, { threadId: "chat-1", checkpointer });
 * ```
 */
export type ThreadInput<S extends object, N extends string = string, Held extends object = S> =
  | { readonly [K in keyof S]?: S[K] }
  | null
  | Command<unknown, Held, N | End>;

/**
 * What a run without a thread says to an input only a thread takes: a required property whose name is
 * the message, so the compiler's first line quotes it (`… not assignable to parameter of type
 * 'S | ThreadRequired<"invoke: without a threadId …">'`).
 */
export type ThreadRequired<Message extends string> = { readonly [K in Message]: never };

/** The message of {@link ThreadRequired} for `invoke` or `stream`. */
type ThreadRequiredMessage<Api extends string> =
  `${Api}: without a threadId the input is the whole state; a partial state, null (resume) or a Command continues a thread, so pass { threadId, checkpointer }`;

/** The options of either kind of run, the stream's mode included (what the implementation signature takes). */
export type AnyRunOptions = RunOptions | ThreadRunOptions | StreamOptions<StreamMode | readonly StreamMode[]>;

/**
 * The options `invoke` takes, with `T` the type of their `threadId` (`undefined` without one). Only the
 * thread id is inferred from the argument, not the options' whole type: the parameter stays a plain
 * object type, so TypeScript's own excess-property check refuses an unknown option in a literal
 * (`'maxStep' does not exist in type …`), and options typed by a generic (`O extends RunOptions`) or a
 * union (`flag ? { maxSteps: 3 } : { recursionLimit: 4 }`) are checked by plain assignability.
 */
export type InvokeOptions<T extends string | undefined> = (RunOptions | ThreadRunOptions) & { readonly threadId?: T };

/** The options `stream` takes: {@link InvokeOptions} and the stream mode(s) `M`. */
export type StreamRunOptions<T extends string | undefined, M extends StreamMode | readonly StreamMode[]> = (
  | StreamOptions<M>
  | (StreamOptions<M> & ThreadRunOptions)
) & { readonly threadId?: T };

/**
 * Whether a thread id of type `T` names a thread: `false` when it may be `undefined` (options without a
 * `threadId`, a `threadId` typed `string | undefined`), whose run may start from its input.
 */
type Threaded<T> = [T] extends [string] ? true : false;

/**
 * The input `invoke`/`stream` take for a thread id of type `T`: the whole state without a thread,
 * {@link ThreadInput} on one. `S` is what the input is (a state schema's input type), `Held` the state
 * the graph holds (its output type), which a `Command`'s update is typed by.
 */
export type RunInput<S extends object, T, Api extends string = "invoke", N extends string = string, Held extends object = S> =
  Threaded<T> extends true ? ThreadInput<S, N, Held> : S | ThreadRequired<ThreadRequiredMessage<Api>>;

/** What `invoke` resolves with for a thread id of type `T`: a {@link ThreadRunResult} on a thread. */
export type InvokeResult<S, N extends string, T> = Threaded<T> extends true ? ThreadRunResult<S, N> : RunResult<S, N>;
