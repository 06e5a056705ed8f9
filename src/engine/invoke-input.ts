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
export type ThreadInput<S extends object, N extends string = string> =
  | { readonly [K in keyof S]?: S[K] }
  | null
  | Command<unknown, S, N | End>;

/**
 * What a run without a thread says to an input only a thread takes: a required property whose name is
 * the message, so the compiler's first line quotes it (`… not assignable to parameter of type
 * 'S | ThreadRequired<"invoke: without a threadId …">'`).
 */
export type ThreadRequired<Message extends string> = { readonly [K in Message]: never };

/** The message of {@link ThreadRequired} for `invoke` or `stream`. */
type ThreadRequiredMessage<Api extends string> =
  `${Api}: without a threadId the input is the whole state; a partial state, null (resume) or a Command continues a thread, so pass { threadId, checkpointer }`;

/** The options of either kind of run, the stream's mode included. */
export type AnyRunOptions = RunOptions | ThreadRunOptions | StreamOptions<StreamMode | readonly StreamMode[]>;

/** Whether options `O` name a thread. */
type Threaded<O> = O extends { readonly threadId: string } ? true : false;

/** The input `invoke`/`stream` take with options `O`: the whole state without a thread, {@link ThreadInput} on one. */
export type RunInput<S extends object, O, Api extends string = "invoke", N extends string = string> =
  Threaded<O> extends true ? ThreadInput<S, N> : S | ThreadRequired<ThreadRequiredMessage<Api>>;

/** What `invoke` resolves with for options `O`: a {@link ThreadRunResult} on a thread. */
export type InvokeResult<S, N extends string, O> = Threaded<O> extends true ? ThreadRunResult<S, N> : RunResult<S, N>;

/** The stream mode(s) options `O` ask for (`"updates"` by default). */
export type StreamModeOf<O> = "streamMode" extends keyof O
  ? Exclude<O["streamMode" & keyof O], undefined> | (undefined extends O["streamMode" & keyof O] ? "updates" : never)
  : "updates";

/** Every option a run knows. */
type KnownKey = keyof ThreadRunOptions | keyof StreamOptions;

/**
 * The options' keys checked: `unknown` when each is an option, else a requirement named after the
 * unknown keys. The options' type is inferred from the argument (so a `threadId` can choose the input
 * type), and an inferred type has no excess keys to report: this reports them.
 */
export type KnownOptions<O, Api extends string> = [Exclude<keyof O, KnownKey>] extends [never]
  ? unknown
  : {
      readonly [K in `${Api}: ${Exclude<keyof O, KnownKey> & string} is not an option of a run; see RunOptions and ThreadRunOptions`]: never;
    };
