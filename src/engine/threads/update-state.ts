/**
 * `updateState`: a person's edit of a paused thread, applied as LangGraph applies it. The update is
 * merged through the reducers as if a node had returned it, and what runs next is what follows that
 * node, computed again on the edited state:
 * - `asNode: END` cancels the pending work (the next tasks and any join left waiting);
 * - without `asNode`, the update is applied as the node that ran last (START for a thread that has
 *   only its input), and that node's routes are computed again: a stale `Send` is dropped, so a tool
 *   runs on the edited arguments, not on the ones its router saw;
 * - when the last superstep ran several nodes, which one the update comes from is ambiguous: `asNode`
 *   is required (`AMBIGUOUS_UPDATE`);
 * - the interrupts of the paused tasks the update leaves as they were stay pending (`stillPending`).
 * On a subgraph's thread (`child-update.ts`) the update edits the paused child, by the child's rules.
 */
import { InvalidOptionError, InvalidUpdateError } from "../../errors.js";
import { END, START } from "../../spec.js";
import { cloneState, isPlainObject } from "../clone.js";
import type { ExecutableGraph } from "../executable.js";
import { Run } from "../run.js";
import { unreadableInput } from "../run-checks.js";
import { describeValue, type State, type Task } from "../step.js";
import type { RunSnapshot } from "../kernel/superstep.js";
import { cancelPending, reroutes, updateSource } from "../kernel/updates.js";
import { keptWrites } from "./pending-writes.js";
import { foldUpdates } from "../subgraph-output.js";
import { executionError } from "../run-checks.js";
import { jsonEqual } from "../json-equal.js";
import type { Checkpoint, Checkpointer } from "../checkpointer.js";
import { isSubgraphThread } from "./child-lookup.js";
import { childTarget } from "./child-update.js";
import { checkJson } from "../json-check.js";
import { checkThreadOptions } from "./thread-options.js";
import { snapshotOf, startingPoint } from "./thread-start.js";
import { saveMigrated } from "./versions/continue-thread.js";
import { migrateCheckpoint } from "./versions/migrate-checkpoint.js";
import type { ThreadPause, ThreadSettings, UpdateStateOptions } from "./types.js";
import { ThreadWriter } from "./writer.js";
import { CheckpointSaves } from "./durability.js";

/** How an update is applied: which node it counts as, and what becomes of the next tasks. */
type UpdatePlan =
  /** `asNode: END`: merge, then no task is left and no join waits. */
  | { readonly kind: "cancel" }
  /** Merge as `node`, then run its rule again on the merged state; its earlier routes (from `routes[from]` on) are dropped. */
  | { readonly kind: "reroute"; readonly node: string; readonly from: number }
  /** Merge as `node` (not the last that ran), then what follows it replaces the next tasks. */
  | { readonly kind: "asNode"; readonly node: string }
  /** Merge and keep the next tasks: the node's rule does not read the state (an edge, a fan-out, a join). */
  | { readonly kind: "keep"; readonly writes: readonly string[] };

/**
 * Applies `update` to the thread's latest checkpoint (or the given one) and records the result as a
 * new checkpoint (`metadata.source: "update"`, `metadata.writes`: the node it counts as).
 */
export async function updateThreadState(
  graph: ExecutableGraph,
  settings: ThreadSettings,
  threadId: string,
  update: unknown,
  options: UpdateStateOptions = {},
): Promise<Checkpoint> {
  try {
    return await applyUpdate(graph, settings, threadId, update, options);
  } catch (error) {
    throw unreadableInput("updateState", "update", update, error);
  }
}

async function applyUpdate(
  graph: ExecutableGraph,
  settings: ThreadSettings,
  threadId: string,
  update: unknown,
  options: UpdateStateOptions,
): Promise<Checkpoint> {
  const { checkpointer } = checkThreadOptions("updateState", settings, { ...options, threadId }, true);
  const child = isSubgraphThread(threadId) ? await childTarget(graph, checkpointer, threadId) : undefined;
  const target = child?.graph ?? graph;
  const of = child === undefined ? "" : ` of subgraph "${child.path}"`;
  const { asNode } = options;
  if (asNode !== undefined && asNode !== END && !target.nodes.has(asNode)) {
    throw new InvalidOptionError(
      `updateState: asNode "${String(asNode)}" is not a node${of === "" ? " of this graph" : of}; use one of ${[...target.nodes.keys()].join(", ")}, or END to cancel the pending work.`,
    );
  }
  const latest = await checkpointer.latest(threadId);
  const stored = options.checkpointId === undefined ? latest : await checkpointer.get(threadId, options.checkpointId);
  // A checkpoint of an older version is migrated (in memory) before the update is checked against it.
  const found = stored === undefined ? undefined : migrateCheckpoint("updateState", target, stored);
  // The update is checked first, as LangGraph does: a bad key is the caller's first fault, even on a thread with no checkpoint.
  const values = checkUpdate(target, update, asNode, found, of);
  checkJson(values, "update", "updateState");
  const started = found ?? (await startingPoint("updateState", checkpointer, threadId, latest, options.checkpointId));
  const plan = await planUpdate(target, checkpointer, started, asNode, of);
  // Written once the update is known to apply: the migration as its own checkpoint, then the update after it.
  const { checkpoint: from, latestId } =
    stored === undefined || started === stored
      ? { checkpoint: started, latestId: latest?.id ?? null }
      : await saveMigrated(checkpointer, stored, started, latest?.id ?? null);
  const snapshot = snapshotOf("updateState", target, from);
  const run = Run.restore(target, restoredFor(target, plan, snapshot, from), { threadId, api: "updateState" });
  const routed = plan.kind === "reroute" || plan.kind === "asNode" ? plan.node : undefined;
  await run.commitAs(routed, values);
  const writer = new ThreadWriter(new CheckpointSaves(checkpointer, "sync"), threadId, latestId, from, from.metadata.user);
  // A child's update is part of what it hands its parent, as if the node it counts as had written it.
  if (child !== undefined) writer.subgraphUpdate = foldUpdates(target.reducers, from.subgraphUpdate ?? {}, [{ update: values }]);
  const writes = plan.kind === "keep" ? plan.writes : routed === undefined || routed === START ? [] : [routed];
  return writer.write(run, "update", writes, undefined, stillPending(from, run.pending ?? []));
}

/**
 * What the update keeps of a paused superstep: the pending interrupts of the tasks it leaves as they
 * were (same node, same input, same position: the same task runs again in the same superstep, so its
 * interrupt ids stay valid and a `Command({ resume })` still answers them), with the answers given to
 * them so far. Not the finished siblings' writes: they were computed from the state before the edit,
 * so those tasks run again on the edited one.
 */
function stillPending(from: Checkpoint, tasks: readonly Task[]): ThreadPause {
  const prefixes = tasks.flatMap((task, index) =>
    jsonEqual(task, from.tasks[index]) ? [`${task.node}:${from.supersteps + 1}:${index}`] : [],
  );
  const kept = (id: string) => prefixes.some((prefix) => id.startsWith(`${prefix}:`) || id.startsWith(`${prefix}/`));
  const interrupts = (from.interrupts ?? []).filter((pending) => kept(pending.id));
  const resumes = Object.fromEntries(Object.entries(from.resumes ?? {}).filter(([id]) => kept(id)));
  return { interrupts, resumes, writes: [] };
}

/**
 * The snapshot the update is committed onto: without the pending work (the finished tasks' kept writes
 * merged), or without the routes to compute again.
 */
function restoredFor(graph: ExecutableGraph, plan: UpdatePlan, snapshot: RunSnapshot, from: Checkpoint): RunSnapshot {
  if (plan.kind === "cancel") {
    const cancelled = cancelPending(graph, snapshot, keptWrites("updateState", from));
    if (!cancelled.ok)
      throw executionError("updateState", cancelled.failure, {
        node: cancelled.node,
        state: cloneState(from.state),
        trace: [...from.trace],
      });
    return cancelled.snapshot;
  }
  if (plan.kind === "reroute") return { ...snapshot, routes: snapshot.routes.slice(0, plan.from) };
  return snapshot;
}

async function planUpdate(
  graph: ExecutableGraph,
  checkpointer: Checkpointer,
  checkpoint: Checkpoint,
  asNode: string | undefined,
  of: string,
): Promise<UpdatePlan> {
  if (asNode === END) return { kind: "cancel" };
  const last = lastNodes(checkpoint);
  const source = updateSource(asNode, last);
  if (source.kind === "ambiguous") throw ambiguousUpdate(checkpoint, source.nodes, of);
  if (source.kind === "none") return { kind: "keep", writes: [] };
  const { node } = source;
  if (!reroutes(last, node)) return { kind: "asNode", node };
  // Only a router reads the state; re-arriving at a join that already fired would count the source twice.
  if (graph.transitions.get(node)?.kind !== "route") return { kind: "keep", writes: node === START ? [] : [node] };
  return { kind: "reroute", node, from: await routesBefore(checkpointer, checkpoint, node) };
}

/** The nodes whose writes the checkpoint records (START for a run's input checkpoint), without repeats. */
function lastNodes(checkpoint: Checkpoint): readonly string[] {
  if (checkpoint.metadata.source === "input") return [START];
  return [...new Set(checkpoint.metadata.writes)];
}

/** An update without `asNode` after a superstep that ran several nodes. */
function ambiguousUpdate(checkpoint: Checkpoint, last: readonly string[], of: string): InvalidUpdateError {
  return new InvalidUpdateError(
    `updateState: the last superstep${of} ran several nodes (${last.join(", ")}), so which one the update comes from is ambiguous. ` +
      `Pass { asNode } naming one of them, or END to cancel the pending work.`,
    { node: last[0] as string, state: cloneState(checkpoint.state), trace: [...checkpoint.trace] },
    "AMBIGUOUS_UPDATE",
  );
}

/**
 * Where `node`'s routes of the checkpoint's superstep begin in `checkpoint.routes`: a superstep appends
 * its routes to its parent's, and an update that computed a node's routes again replaced that node's
 * own, so a line of such updates leads back to the superstep that ran the node.
 */
async function routesBefore(checkpointer: Checkpointer, checkpoint: Checkpoint, node: string): Promise<number> {
  if (checkpoint.metadata.source === "input") return 0;
  const parent = checkpoint.parentId === null ? undefined : await checkpointer.get(checkpoint.threadId, checkpoint.parentId);
  // A parent removed by retention: keep every route rather than guess which are this node's.
  if (parent === undefined) return checkpoint.routes.length;
  const rerouted = checkpoint.metadata.source === "update" && reroutes(lastNodes(parent), node);
  return rerouted ? routesBefore(checkpointer, parent, node) : parent.routes.length;
}

/** The update, checked: a plain object of declared fields (`null` only with `asNode: END`). */
function checkUpdate(
  graph: ExecutableGraph,
  update: unknown,
  asNode: string | undefined,
  checkpoint: Checkpoint | undefined,
  of: string,
): State {
  if (update === null && asNode === END) return {};
  const context = { node: asNode ?? "updateState", state: cloneState(checkpoint?.state ?? {}), trace: [...(checkpoint?.trace ?? [])] };
  if (!isPlainObject(update)) {
    throw new InvalidUpdateError(
      `updateState: the update must be a plain object of changed fields, such as { draft }; got ${describeValue(update)}` +
        `${update === null ? " (null is for { asNode: END }, which cancels the pending work)" : ""}.`,
      context,
    );
  }
  const undeclared = Object.keys(update).filter((key) => key === "__proto__" || (graph.fields !== undefined && !graph.fields.has(key)));
  if (undeclared.length > 0) {
    throw new InvalidUpdateError(
      `updateState: the update has fields the state${of} does not declare: ${undeclared.join(", ")}. Update only declared fields${of === "" ? "" : " (the child's own)"}.`,
      context,
      "UNDECLARED_FIELD",
    );
  }
  return update;
}
