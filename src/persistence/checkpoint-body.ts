/**
 * A checkpoint's body as a store writes it: its JSON text, without its pending writes (stored apart) and,
 * for a store that keeps them as deltas, without its trace and routes.
 */
import type { Checkpoint } from "../engine/index.js";

/** The members every checkpoint has, written from object literals; `pendingWrites`, never. */
const COMMON = new Set([
  "id",
  "parentId",
  "threadId",
  "step",
  "state",
  "next",
  "tasks",
  "trace",
  "routes",
  "supersteps",
  "joins",
  "createdAt",
  "metadata",
  "pendingWrites",
]);

/**
 * The JSON text of `checkpoint` without `pendingWrites`, and without `trace` and `routes` unless
 * `withLists`: `JSON.stringify`'s text of those members, in the order the engine makes them (a
 * checkpoint whose members come in another order gets the same content in this order).
 *
 * @example
 * ```ts
 * JSON.parse(checkpointBody(checkpoint, false)); // the checkpoint, less pendingWrites, trace and routes
 * ```
 */
export function checkpointBody(checkpoint: Checkpoint, withLists: boolean): string {
  const { id, parentId, threadId, step, next, tasks, supersteps, joins, createdAt, metadata } = checkpoint;
  // Literals, not an object rest of the checkpoint: JSON.stringify writes them in about half the time.
  const head = JSON.stringify({ id, parentId, threadId, step });
  const tail = JSON.stringify(
    withLists
      ? { next, tasks, trace: checkpoint.trace, routes: checkpoint.routes, supersteps, joins, createdAt, metadata }
      : { next, tasks, supersteps, joins, createdAt, metadata },
  );
  let text = `${head.slice(0, -1)}${head.length > 2 ? "," : ""}"state":${JSON.stringify(checkpoint.state)}${tail.length > 2 ? `,${tail.slice(1, -1)}` : ""}`;
  // The optional members (interrupts, resumes, subgraphUpdate), and any a caller added, as JSON.stringify would.
  for (const key of Object.keys(checkpoint)) {
    if (COMMON.has(key)) continue;
    const value = JSON.stringify(checkpoint[key as keyof Checkpoint]);
    if (value !== undefined) text += `,${JSON.stringify(key)}:${value}`;
  }
  return `${text}}`;
}
