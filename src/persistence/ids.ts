/**
 * The ids a store keys its rows by (thread ids, checkpoint ids), checked once for every store before
 * anything is read or written. Two faults are refused, each `INVALID_ARGUMENT`:
 *
 * - An id that is not well-formed Unicode (a lone UTF-16 surrogate such as `"\ud800"`). Both SQLite
 *   drivers and `pg` encode text as UTF-8, where a lone surrogate becomes U+FFFD: `"\ud800"`,
 *   `"\udc00"` and `"\ufffd"` would be one thread, and a save to one would write into another.
 * - An id too long for every store to index. PostgreSQL's B-tree index takes a row of at most 2704
 *   bytes (a third of an 8 KiB page), and a checkpoint row is indexed by its thread id and its id
 *   together; SQLite has no such bound, so without one here an id that works on SQLite fails on
 *   PostgreSQL, mid-run. The bounds leave room under 2704 bytes: a thread id the user chooses takes up
 *   to {@link MAX_THREAD_ID_BYTES}, a subgraph's thread (that id, `U+001F` and the subgraph's
 *   namespace, per level) up to {@link MAX_THREAD_KEY_BYTES}, a checkpoint id up to
 *   {@link MAX_CHECKPOINT_ID_BYTES} (the engine's are 36-byte UUIDs).
 */
import type { Checkpoint } from "../engine/index.js";
import { NAMESPACE_SEPARATOR } from "../engine/store-rules.js";
import { invalidArgument } from "../errors.js";
import { quoted } from "./sqlite/faults.js";

/** The most bytes of UTF-8 a thread id may take (the part a user chooses, before any subgraph namespace). */
export const MAX_THREAD_ID_BYTES = 1024;
/** The most bytes of UTF-8 a subgraph's thread id may take: the user's id and its namespaces, at every depth. */
export const MAX_THREAD_KEY_BYTES = 2048;
/** The most bytes of UTF-8 a checkpoint id may take. */
export const MAX_CHECKPOINT_ID_BYTES = 256;

/**
 * A lone surrogate: with the `u` flag a pair is one code point, so only an unpaired half is in the
 * Surrogate category. What `String.prototype.isWellFormed` tests, which the es2023 lib this project
 * compiles against does not declare.
 */
const LONE_SURROGATE = /\p{Surrogate}/u;

/** UTF-8 takes at most 3 bytes per UTF-16 unit: a string this short is within any bound without counting its bytes. */
const BYTES_PER_UNIT = 3;

function byteLength(text: string, bound: number): number {
  return text.length * BYTES_PER_UNIT <= bound ? text.length : Buffer.byteLength(text, "utf8");
}

/** Why `id` cannot be a key in every store, or `undefined` when it can. */
function idProblem(id: string, bound: number, noun: string): string | undefined {
  const lone = LONE_SURROGATE.exec(id);
  if (lone !== null) {
    return (
      `${noun} ${quoted(id)} is not well-formed Unicode: it holds a lone UTF-16 surrogate (U+${lone[0].charCodeAt(0).toString(16).toUpperCase()}), ` +
      "which SQLite and PostgreSQL store as U+FFFD, the id of another thread. Use an id of whole characters (id.toWellFormed() replaces the lone surrogates)"
    );
  }
  const bytes = byteLength(id, bound);
  if (bytes <= bound) return undefined;
  return (
    `${noun} ${quoted(id)} takes ${bytes} bytes of UTF-8, more than the ${bound} every store accepts ` +
    "(PostgreSQL indexes a row of at most 2704 bytes). Use a shorter id, such as a hash of this one"
  );
}

/**
 * Refuses a thread id that some store would mistake for another thread or could not index:
 * `InvalidOptionError` (`INVALID_ARGUMENT`) naming `api`. Every store calls it before it reads or
 * writes a thread.
 *
 * @example
 * ```ts
 * checkThreadId("MyCheckpointer.latest", "order-42"); // returns "order-42"
 * checkThreadId("MyCheckpointer.latest", "\ud800"); // InvalidOptionError INVALID_ARGUMENT: … not well-formed Unicode …
 * ```
 */
export function checkThreadId(api: string, threadId: unknown): string {
  if (typeof threadId !== "string")
    throw invalidArgument(
      `${api}: the thread id must be a string, such as "order-42"; got ${threadId === null ? "null" : typeof threadId}.`,
    );
  const separator = threadId.indexOf(NAMESPACE_SEPARATOR);
  const root = separator === -1 ? threadId : threadId.slice(0, separator);
  const problem =
    idProblem(root, MAX_THREAD_ID_BYTES, "the thread id") ??
    (separator === -1 ? undefined : idProblem(threadId, MAX_THREAD_KEY_BYTES, "the subgraph thread id"));
  if (problem !== undefined) throw invalidArgument(`${api}: ${problem}.`);
  return threadId;
}

/**
 * Refuses a checkpoint id (given to `get`, `putWrites`, or as a saved checkpoint's id or parent) that
 * some store would mistake for another or could not index: `INVALID_ARGUMENT`, as {@link checkThreadId}.
 *
 * @example
 * ```ts
 * checkCheckpointId("MyCheckpointer.get", "x".repeat(300)); // InvalidOptionError INVALID_ARGUMENT: … more than the 256 …
 * ```
 */
export function checkCheckpointId(api: string, id: unknown): string {
  if (typeof id !== "string") throw invalidArgument(`${api}: the checkpoint id must be a string; got ${id === null ? "null" : typeof id}.`);
  const problem = idProblem(id, MAX_CHECKPOINT_ID_BYTES, "the checkpoint id");
  if (problem !== undefined) throw invalidArgument(`${api}: ${problem}.`);
  return id;
}

/**
 * Refuses a checkpoint to save whose thread id, id or parent id {@link checkThreadId} or
 * {@link checkCheckpointId} would refuse: checked before a save writes anything.
 *
 * @example
 * ```ts
 * checkSavedIds("MyCheckpointer.save", checkpoint);
 * ```
 */
export function checkSavedIds(api: string, checkpoint: Pick<Checkpoint, "threadId" | "id" | "parentId">): void {
  checkThreadId(api, checkpoint.threadId);
  checkCheckpointId(api, checkpoint.id);
  if (checkpoint.parentId !== null) checkCheckpointId(api, checkpoint.parentId);
}
