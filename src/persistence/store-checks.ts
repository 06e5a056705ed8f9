/**
 * The checks only stores make, the same for MemoryCheckpointer, SqliteCheckpointer, PostgresCheckpointer
 * and a store of yours: the writes given to `putWrites`, a chain given to `saveMany`, a `prune` request
 * and what it keeps. A bad value gets the same coded error from every store, before anything is stored.
 */
import { briefly as described } from "../_describe.js";
import { findNonJson } from "../engine/store-rules.js";
import { isPlainObject, PersistenceError, type Checkpoint, type CheckpointWrite } from "../engine/index.js";
import { InvalidOptionError } from "../errors.js";

/**
 * Checks the writes given to `putWrites`: a list of `{ task, node, update }`, `task` a position (a whole
 * number), `node` a name, `update` a plain object of JSON values. Anything else is `INVALID_WRITE`,
 * naming the write and what is wrong, before anything is stored.
 *
 * @example
 * ```ts
 * checkWrites("MyCheckpointer.putWrites", [{ task: -1, node: "a", update: {} }]); // PersistenceError INVALID_WRITE: … writes[0].task …
 * ```
 */
export function checkWrites(api: string, writes: unknown): readonly CheckpointWrite[] {
  const invalid = (problem: string) =>
    new PersistenceError(
      "INVALID_WRITE",
      `${api}: ${problem}. Pass a list of { task, node, update }: task the position in the checkpoint's tasks, node its name, update a plain object of JSON values.`,
    );
  if (!Array.isArray(writes)) throw invalid(`the writes must be a list; got ${described(writes)}`);
  writes.forEach((write: unknown, index) => {
    if (!isPlainObject(write)) throw invalid(`writes[${index}] must be an object; got ${described(write)}`);
    const { task, node, update } = write as Record<string, unknown>;
    if (!(Number.isSafeInteger(task) && (task as number) >= 0))
      throw invalid(`writes[${index}].task must be a whole number; got ${described(task)}`);
    if (typeof node !== "string" || node === "") throw invalid(`writes[${index}].node must be a node name; got ${described(node)}`);
    if (!isPlainObject(update)) throw invalid(`writes[${index}].update must be a plain object; got ${described(update)}`);
    const problem = findNonJson(update, `writes[${index}].update`);
    if (problem !== undefined) throw invalid(`${problem.path} is ${problem.what}, not JSON: ${problem.fix}`);
  });
  return writes as readonly CheckpointWrite[];
}

/**
 * Checks the checkpoints given to `saveMany`: a non-empty list of one thread's checkpoints, each after
 * the first continuing the one before it. Anything else is a caller's mistake, refused before anything
 * is stored.
 *
 * @example
 * ```ts
 * checkSaveChain("MyCheckpointer.saveMany", [a, c]); // InvalidOptionError: … checkpoints[1] continues "b", not "a" …
 * ```
 */
export function checkSaveChain(api: string, checkpoints: unknown): readonly Checkpoint[] {
  const invalid = (problem: string) =>
    new InvalidOptionError(`${api}: ${problem}. Pass one thread's checkpoints in order, each one's parentId the id of the one before it.`);
  if (!Array.isArray(checkpoints) || checkpoints.length === 0)
    throw invalid(`the checkpoints must be a non-empty list; got ${described(checkpoints)}`);
  const chain = checkpoints as readonly Checkpoint[];
  chain.forEach((checkpoint, index) => {
    if (!isPlainObject(checkpoint)) throw invalid(`checkpoints[${index}] must be a checkpoint; got ${described(checkpoint)}`);
    const previous = chain[index - 1];
    if (previous === undefined) return;
    if (checkpoint.threadId !== previous.threadId)
      throw invalid(`checkpoints[${index}] is of thread ${described(checkpoint.threadId)}, not ${described(previous.threadId)}`);
    if (checkpoint.parentId !== previous.id)
      throw invalid(`checkpoints[${index}] continues ${described(checkpoint.parentId)}, not ${described(previous.id)}`);
  });
  return chain;
}

/**
 * The error every store gives when `putWrites` names a checkpoint its thread does not have.
 *
 * @example
 * ```ts
 * throw writesTargetMissing("MyCheckpointer.putWrites", "t1", "cp-9"); // PersistenceError CHECKPOINT_NOT_FOUND
 * ```
 */
export function writesTargetMissing(api: string, threadId: string, checkpointId: string): PersistenceError {
  return new PersistenceError(
    "CHECKPOINT_NOT_FOUND",
    `${api}: thread ${described(threadId)} has no checkpoint ${described(checkpointId)} to keep writes for: the writes were not stored. ` +
      "Keep writes only for a checkpoint that was saved (the one the superstep started from).",
    { threadId, checkpointId },
  );
}

/**
 * The writes a store keeps for a checkpoint after `incoming` arrive: a task that has one keeps its first, in task order.
 *
 * @example
 * ```ts
 * mergeWrites([{ task: 1, node: "b", update: { n: 1 } }], [{ task: 1, node: "b", update: { n: 9 } }, { task: 0, node: "a", update: {} }]);
 * // [{ task: 0, node: "a", update: {} }, { task: 1, node: "b", update: { n: 1 } }]
 * ```
 */
export function mergeWrites(stored: readonly CheckpointWrite[], incoming: readonly CheckpointWrite[]): CheckpointWrite[] {
  const byTask = new Map(stored.map((write) => [write.task, write]));
  for (const write of incoming) if (!byTask.has(write.task)) byTask.set(write.task, write);
  return [...byTask.values()].sort((a, b) => a.task - b.task);
}

/** What a prune call asked for, checked: the thread (or every thread) and what to keep. */
export interface PruneRequest {
  readonly threadId?: string;
  readonly keepLast?: number;
  /** `olderThan` as milliseconds since the epoch. */
  readonly olderThan?: number;
}

/**
 * Checks the arguments of `prune(threadId, options)` or `prune(options)`, the same in every store: a
 * non-empty thread id, an options object with `keepLast` (a positive integer) and/or `olderThan` (a
 * valid `Date` or ISO 8601 string). Anything else is an `InvalidOptionError` (`INVALID_OPTION`) naming it.
 *
 * @example
 * ```ts
 * checkPrune("MyCheckpointer.prune", "t1", { keepLast: 0 }); // InvalidOptionError: … keepLast must be a positive integer …
 * ```
 */
export function checkPrune(api: string, first: unknown, second?: unknown): PruneRequest {
  const byThread = typeof first === "string";
  const options = byThread ? second : first;
  if (byThread && first.trim() === "") throw new InvalidOptionError(`${api}: the thread id must be a non-empty string; got "${first}".`);
  if (!isPlainObject(options)) {
    throw new InvalidOptionError(
      `${api}: pass prune(threadId, options) or prune(options), options such as { keepLast: 100 } or { olderThan: new Date(…) }; got ${described(options)}.`,
    );
  }
  const { keepLast, olderThan, ...rest } = options as { keepLast?: unknown; olderThan?: unknown };
  const unknown = Object.keys(rest);
  if (unknown.length > 0)
    throw new InvalidOptionError(
      `${api}: unknown option ${unknown.map((key) => `"${key}"`).join(", ")}; prune takes keepLast and olderThan.`,
    );
  if (keepLast === undefined && olderThan === undefined) {
    throw new InvalidOptionError(
      `${api}: say what to keep: { keepLast: N } (the newest N checkpoints), { olderThan: date } (those created since), or both.`,
    );
  }
  if (keepLast !== undefined && !(Number.isSafeInteger(keepLast) && (keepLast as number) > 0)) {
    throw new InvalidOptionError(
      `${api}: keepLast must be a positive integer (the newest checkpoints to keep; the latest is always kept); got ${described(keepLast)}.`,
    );
  }
  let time: number | undefined;
  if (olderThan !== undefined) {
    time = olderThan instanceof Date ? olderThan.getTime() : typeof olderThan === "string" ? Date.parse(olderThan) : Number.NaN;
    if (Number.isNaN(time)) {
      throw new InvalidOptionError(
        `${api}: olderThan must be a valid Date or an ISO 8601 string such as "2026-01-31T00:00:00Z"; got ${described(olderThan)}.`,
      );
    }
  }
  return {
    ...(byThread ? { threadId: first } : {}),
    ...(keepLast === undefined ? {} : { keepLast: keepLast as number }),
    ...(time === undefined ? {} : { olderThan: time }),
  };
}

/**
 * Which of a thread's checkpoints a prune keeps, by position in write order (oldest first): the latest,
 * the newest `keepLast`, and those created at or after `olderThan`. Every store applies this one rule.
 *
 * @example
 * ```ts
 * keptByPrune(["2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z", "2026-01-03T00:00:00Z"], { keepLast: 2 }); // Set { 1, 2 }
 * ```
 */
export function keptByPrune(createdAt: readonly string[], request: Omit<PruneRequest, "threadId">): Set<number> {
  const count = createdAt.length;
  const kept = new Set<number>();
  if (count > 0) kept.add(count - 1);
  if (request.keepLast !== undefined) for (let index = Math.max(0, count - request.keepLast); index < count; index++) kept.add(index);
  const since = request.olderThan;
  if (since !== undefined) createdAt.forEach((time, index) => !(Date.parse(time) < since) && kept.add(index));
  return kept;
}
