/**
 * A checkpoint's body as a store writes it: its JSON text, without its pending writes (stored apart) and,
 * for a store that keeps them as deltas, without its trace and routes.
 */
import type { Checkpoint } from "../engine/index.js";

/** The members the engine writes, in its order (writer.ts), written from object literals; `pendingWrites`, never. */
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
  "graph",
  "deferred",
  "interrupts",
  "resumes",
  "pendingWrites",
  "subgraphUpdate",
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
  const { id, parentId, threadId, step, state, next, tasks, supersteps, joins, createdAt, metadata } = checkpoint;
  const { graph, deferred, interrupts, resumes, subgraphUpdate } = checkpoint;
  // One literal (JSON.stringify leaves its undefined members out), not an object rest of the checkpoint
  // (about half the time), nor parts joined as text (a sixth more: each part's call, and the copies).
  const text = JSON.stringify({
    id,
    parentId,
    threadId,
    step,
    state,
    next,
    tasks,
    trace: withLists ? checkpoint.trace : undefined,
    routes: withLists ? checkpoint.routes : undefined,
    supersteps,
    joins,
    createdAt,
    metadata,
    graph,
    deferred,
    interrupts,
    resumes,
    subgraphUpdate,
  });
  // Any member a caller added, as JSON.stringify would (an undefined one is left out, as in the literal).
  let extra = "";
  for (const key of Object.keys(checkpoint)) {
    if (COMMON.has(key)) continue;
    const value = JSON.stringify(checkpoint[key as keyof Checkpoint]);
    if (value !== undefined) extra += `,${JSON.stringify(key)}:${value}`;
  }
  if (extra === "") return text;
  return text === "{}" ? `{${extra.slice(1)}}` : `${text.slice(0, -1)}${extra}}`;
}
