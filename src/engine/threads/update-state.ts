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
import type { Checkpoint } from "../checkpointer.js";
import { PersistenceError } from "../persistence-errors.js";
import { isSubgraphThread } from "./child-lookup.js";
import { childTarget, type ChildTarget } from "./child-update.js";
import { checkJson } from "../json-check.js";
import { checkThreadOptions } from "./thread-options.js";
import { snapshotOf, startingPoint } from "./thread-start.js";
import { migratedCheckpoint } from "./versions/continue-thread.js";
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
  /** A superstep of several updates: merged as if `nodes` had run together, then what follows them replaces the next tasks. */
  | { readonly kind: "asNodes"; readonly nodes: readonly string[] }
  /** Merge and keep the next tasks: the node's rule does not read the state (an edge, a fan-out, a join). */
  | { readonly kind: "keep"; readonly writes: readonly string[] };

/** One update of a superstep of edits and the node it counts as (`bulkUpdateState`'s `{ values, asNode }`). */
export interface StateEdit {
  readonly values: unknown;
  readonly asNode?: string | undefined;
}

/** What an edit's errors start with: `updateState`, or `bulkUpdateState: supersteps[1].updates[0]`. */
export type EditLabel = (superstep: number, update: number) => string;

/** The call that edits a thread: its API name, how its edits are named, and whether its checkpoints must be stored all or none. */
export interface EditCall {
  readonly api: string;
  readonly label: EditLabel;
  /** Refuse (`NO_ATOMIC_SAVE`) rather than store several checkpoints one `save` after another, on a store without `saveMany`. */
  readonly atomic: boolean;
}

/** The graph an edit applies to: the thread's own, or the paused child's its thread id names. */
interface EditTarget {
  readonly graph: ExecutableGraph;
  readonly child: ChildTarget | undefined;
  /** How messages name the child (` of subgraph "book"`), empty for the thread's own graph. */
  readonly of: string;
}

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
    const call: EditCall = { api: "updateState", label: () => "updateState", atomic: false };
    return await editThread(call, graph, settings, threadId, [[{ values: update, asNode: options.asNode }]], options);
  } catch (error) {
    throw unreadableInput("updateState", "update", update, error);
  }
}

/**
 * Applies `supersteps` of edits to the thread's latest checkpoint (or `options.checkpointId`): each
 * superstep becomes one checkpoint after the one before it, by the rules of `updateState`, and all
 * of them (with a migration's checkpoint, for a thread of an older version) are stored together once
 * every superstep applied: one `save`, or one `saveMany` (all or none). Nothing is stored on any failure.
 */
export async function editThread(
  call: EditCall,
  graph: ExecutableGraph,
  settings: ThreadSettings,
  threadId: string,
  supersteps: readonly (readonly StateEdit[])[],
  options: { readonly checkpointer?: unknown; readonly checkpointId?: string | undefined },
): Promise<Checkpoint> {
  const { api, label } = call;
  const { checkpointer } = checkThreadOptions(api, settings, { ...options, threadId }, true);
  const child = isSubgraphThread(threadId) ? await childTarget(graph, checkpointer, threadId, api) : undefined;
  const target: EditTarget = { graph: child?.graph ?? graph, child, of: child === undefined ? "" : ` of subgraph "${child.path}"` };
  supersteps.forEach((edits, superstep) => checkAsNodes(target, edits, (update) => label(superstep, update)));
  const latest = await checkpointer.latest(threadId);
  const stored = options.checkpointId === undefined ? latest : await checkpointer.get(threadId, options.checkpointId);
  // A checkpoint of an older version is migrated (in memory) before the update is checked against it.
  const found = stored === undefined ? undefined : migrateCheckpoint(api, target.graph, stored);
  // The updates are checked first, as LangGraph does: a bad key is the caller's first fault, even on a thread with no checkpoint.
  const checked = supersteps.map((edits, superstep) =>
    edits.map(({ values, asNode }, update): CheckedEdit => {
      const state = checkUpdate(label(superstep, update), target, values, asNode, found);
      checkJson(state, "update", label(superstep, update));
      return { values: state, asNode };
    }),
  );
  const started = found ?? (await startingPoint(api, checkpointer, threadId, latest, options.checkpointId));
  const migrated = stored !== undefined && started !== stored;
  const count = supersteps.length + (migrated ? 1 : 0);
  if (call.atomic && count > 1 && checkpointer.saveMany === undefined) throw noAtomicSave(api, count);
  // Queued, and stored together once every superstep applied (the "exit" durability's one flush).
  const saves = new CheckpointSaves(checkpointer, "exit");
  const queued: Checkpoint[] = [];
  let from = started;
  let latestId = latest?.id ?? null;
  if (migrated) {
    from = migratedCheckpoint(stored, started);
    saves.save(from, latestId);
    queued.push(from);
    latestId = from.id;
  }
  const writer = new ThreadWriter(saves, threadId, latestId, from, from.metadata.user);
  // A superstep after the first reads its parent from the queue: it is not stored yet.
  const lookup: CheckpointLookup = async (id) => queued.find((checkpoint) => checkpoint.id === id) ?? checkpointer.get(threadId, id);
  for (const [superstep, edits] of checked.entries()) {
    from = await editSuperstep(call, target, { threadId, lookup, writer }, from, edits, superstep);
    queued.push(from);
  }
  await writer.flush();
  return from;
}

/** An edit whose update was checked: a plain object of declared fields, JSON. */
interface CheckedEdit {
  readonly values: State;
  readonly asNode: string | undefined;
}

/** Reads a checkpoint of the edited thread by id. */
type CheckpointLookup = (id: string) => Promise<Checkpoint | undefined>;

/** One superstep of edits applied onto `from`, written (queued) as the next checkpoint. */
async function editSuperstep(
  call: EditCall,
  target: EditTarget,
  thread: { readonly threadId: string; readonly lookup: CheckpointLookup; readonly writer: ThreadWriter },
  from: Checkpoint,
  edits: readonly CheckedEdit[],
  superstep: number,
): Promise<Checkpoint> {
  const { graph } = target;
  const [only] = edits;
  const values = edits.map((edit) => edit.values);
  const plan: UpdatePlan =
    edits.length === 1 && only !== undefined
      ? await planUpdate(target, thread.lookup, from, only.asNode, call.label(superstep, 0))
      : // checkAsNodes made each edit of a superstep of several name its node
        { kind: "asNodes", nodes: edits.flatMap((edit) => (edit.asNode === undefined ? [] : [edit.asNode])) };
  const snapshot = snapshotOf(call.api, graph, from);
  const run = Run.restore(graph, restoredFor(call.api, graph, plan, snapshot, from), { threadId: thread.threadId, api: call.api });
  const routed = plan.kind === "reroute" || plan.kind === "asNode" ? plan.node : undefined;
  if (plan.kind === "asNodes") await run.commitAsNodes(plan.nodes, values);
  else await run.commitAs(routed, only?.values ?? {});
  const { writer } = thread;
  // A child's update is part of what it hands its parent, as if the node it counts as had written it.
  if (target.child !== undefined)
    writer.subgraphUpdate = foldUpdates(
      graph.reducers,
      from.subgraphUpdate ?? {},
      values.map((update) => ({ update })),
    );
  const writes =
    plan.kind === "keep" ? plan.writes : plan.kind === "asNodes" ? plan.nodes : routed === undefined || routed === START ? [] : [routed];
  return writer.write(run, "update", writes, undefined, stillPending(from, run.pending ?? []));
}

/** The refusal of several checkpoints on a store that cannot store them all or none. */
function noAtomicSave(api: string, count: number): PersistenceError {
  return new PersistenceError(
    "NO_ATOMIC_SAVE",
    `${api}: these edits make ${count} checkpoints, and this checkpointer has no saveMany to store them all or none; nothing was stored. ` +
      `Use a store with saveMany (MemoryCheckpointer, SqliteCheckpointer, PostgresCheckpointer, or add it to yours), or apply one superstep per call.`,
  );
}

/** Each edit's `asNode`: a node of the graph or END; in a superstep of several, each one's own node (not END). */
function checkAsNodes(target: EditTarget, edits: readonly StateEdit[], label: (update: number) => string): void {
  const nodes = [...target.graph.nodes.keys()];
  edits.forEach(({ asNode }, update) => {
    if (asNode !== undefined && asNode !== END && !target.graph.nodes.has(asNode)) {
      throw new InvalidOptionError(
        `${label(update)}: asNode "${String(asNode)}" is not a node${target.of === "" ? " of this graph" : target.of}; use one of ${nodes.join(", ")}, or END to cancel the pending work.`,
      );
    }
    if (edits.length === 1) return;
    const context = { node: asNode ?? "updateState", state: {}, trace: [] };
    if (asNode === undefined)
      throw new InvalidUpdateError(
        `${label(update)}: a superstep of several updates needs each one's asNode (the node that wrote it), as if those nodes had run together. Name one of ${nodes.join(", ")}.`,
        context,
        "AMBIGUOUS_UPDATE",
      );
    if (asNode === END)
      throw new InvalidUpdateError(
        `${label(update)}: asNode END cancels the pending work, which is not an update among others: put { values: null, asNode: END } in a superstep of its own.`,
        context,
      );
  });
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
function restoredFor(api: string, graph: ExecutableGraph, plan: UpdatePlan, snapshot: RunSnapshot, from: Checkpoint): RunSnapshot {
  if (plan.kind === "cancel") {
    const cancelled = cancelPending(graph, snapshot, keptWrites(api, from));
    if (!cancelled.ok)
      throw executionError(api, cancelled.failure, {
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
  target: EditTarget,
  lookup: CheckpointLookup,
  checkpoint: Checkpoint,
  asNode: string | undefined,
  label: string,
): Promise<UpdatePlan> {
  if (asNode === END) return { kind: "cancel" };
  const last = lastNodes(checkpoint);
  const source = updateSource(asNode, last);
  if (source.kind === "ambiguous") throw ambiguousUpdate(label, checkpoint, source.nodes, target.of);
  if (source.kind === "none") return { kind: "keep", writes: [] };
  const { node } = source;
  if (!reroutes(last, node)) return { kind: "asNode", node };
  // Only a router reads the state; re-arriving at a join that already fired would count the source twice.
  if (target.graph.transitions.get(node)?.kind !== "route") return { kind: "keep", writes: node === START ? [] : [node] };
  return { kind: "reroute", node, from: await routesBefore(lookup, checkpoint, node) };
}

/** The nodes whose writes the checkpoint records (START for a run's input checkpoint), without repeats. */
function lastNodes(checkpoint: Checkpoint): readonly string[] {
  if (checkpoint.metadata.source === "input") return [START];
  return [...new Set(checkpoint.metadata.writes)];
}

/** An update without `asNode` after a superstep that ran several nodes. */
function ambiguousUpdate(label: string, checkpoint: Checkpoint, last: readonly string[], of: string): InvalidUpdateError {
  return new InvalidUpdateError(
    `${label}: the last superstep${of} ran several nodes (${last.join(", ")}), so which one the update comes from is ambiguous. ` +
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
async function routesBefore(lookup: CheckpointLookup, checkpoint: Checkpoint, node: string): Promise<number> {
  if (checkpoint.metadata.source === "input") return 0;
  const parent = checkpoint.parentId === null ? undefined : await lookup(checkpoint.parentId);
  // A parent removed by retention: keep every route rather than guess which are this node's.
  if (parent === undefined) return checkpoint.routes.length;
  const rerouted = checkpoint.metadata.source === "update" && reroutes(lastNodes(parent), node);
  return rerouted ? routesBefore(lookup, parent, node) : parent.routes.length;
}

/** The update, checked: a plain object of declared fields (`null` only with `asNode: END`). */
function checkUpdate(
  label: string,
  target: EditTarget,
  update: unknown,
  asNode: string | undefined,
  checkpoint: Checkpoint | undefined,
): State {
  if (update === null && asNode === END) return {};
  const context = { node: asNode ?? "updateState", state: cloneState(checkpoint?.state ?? {}), trace: [...(checkpoint?.trace ?? [])] };
  if (!isPlainObject(update)) {
    throw new InvalidUpdateError(
      `${label}: the update must be a plain object of changed fields, such as { draft }; got ${describeValue(update)}` +
        `${update === null ? " (null is for { asNode: END }, which cancels the pending work)" : ""}.`,
      context,
    );
  }
  const { graph, of } = target;
  const undeclared = Object.keys(update).filter((key) => key === "__proto__" || (graph.fields !== undefined && !graph.fields.has(key)));
  if (undeclared.length > 0) {
    throw new InvalidUpdateError(
      `${label}: the update has fields the state${of} does not declare: ${undeclared.join(", ")}. Update only declared fields${of === "" ? "" : " (the child's own)"}.`,
      context,
      "UNDECLARED_FIELD",
    );
  }
  return update;
}
