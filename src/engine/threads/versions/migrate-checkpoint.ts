/**
 * A checkpoint of an older version, as the graph reads it (issue 42 §3): the declared migrations applied
 * in order (v1 → v2 → v3), in memory. Its state goes through each `state` migration and then the graph's
 * state schema; every node name it holds (its tasks, kept writes, interrupts and their answers, trace,
 * routes, join arrivals) through each node map. A checkpoint of a newer version (a rollback) is refused,
 * as is one whose resume points do not all land on this graph's nodes. Nothing here writes.
 */
import { describeValue, quote } from "../../../_describe.js";
import { failureOf } from "../pending-writes.js";
import type { ExecutableGraph } from "../../executable.js";
import { checkState } from "../../kernel/state-check.js";
import type { State, Task } from "../../step.js";
import type { Checkpoint, CheckpointWrite, JsonValue, PendingInterrupt } from "../../checkpointer.js";
import { PersistenceError } from "../../persistence-errors.js";
import { findNonJson } from "../../json-check.js";
import { positionPoints, type ResumePointKind } from "../../../validate/resume-points.js";
import { versionOf } from "./graph-version.js";
import type { GraphMigration } from "./migrations.js";

/** What a graph reads of its versions: its own, and the migrations it declared (oldest first). */
export interface VersionedGraph {
  readonly stamp: ExecutableGraph["stamp"];
  readonly migrations: readonly GraphMigration[];
}

/**
 * `checkpoint` as the graph's version: itself when that is the version that wrote it, else migrated in
 * memory (same id; `graph` is this graph's stamp). Throws `GRAPH_VERSION_NEWER`, `MIGRATION_MISSING`,
 * `MIGRATION_FAILED` or `UNMAPPED_RESUME_POINT`.
 */
export function migrateCheckpoint(api: string, graph: ExecutableGraph, checkpoint: Checkpoint): Checkpoint {
  const written = versionOf(checkpoint);
  const { version } = graph.stamp;
  if (written === version) return checkpoint;
  if (written > version) throw newerVersion(api, checkpoint, written, version);
  let migrated = checkpoint;
  for (let at = written; at < version; ) {
    const index = graph.migrations.findIndex((migration) => migration.from === at);
    const migration = graph.migrations[index];
    if (migration === undefined) throw missingMigration(api, checkpoint, at, version);
    migrated = applyMigration(api, migration, migrated);
    at = graph.migrations[index + 1]?.from ?? version;
  }
  const unmapped = unmappedPoints(graph, migrated);
  if (unmapped.length > 0) throw unmappedResumePoints(api, checkpoint, written, version, unmapped, graph);
  const state = checkedState(api, graph, checkpoint, migrated.state);
  return { ...migrated, state, graph: graph.stamp };
}

function applyMigration(api: string, migration: GraphMigration, checkpoint: Checkpoint): Checkpoint {
  const rename = (node: string): string => (Object.hasOwn(migration.nodes, node) ? (migration.nodes[node] as string) : node);
  const renameId = (id: string): string => {
    const colon = id.indexOf(":");
    return colon === -1 ? id : `${rename(id.slice(0, colon))}${id.slice(colon)}`;
  };
  const failed = (what: string, error: unknown) =>
    new PersistenceError(
      "MIGRATION_FAILED",
      `${api}: the ${what} migration from version ${migration.from} threw on checkpoint ${quote(checkpoint.id)} of thread ${quote(checkpoint.threadId)}: ` +
        `${error instanceof Error ? error.message : String(error)}. Fix the migration in compile({ migrations }); nothing was written.`,
      { threadId: checkpoint.threadId, checkpointId: checkpoint.id, cause: error },
    );
  const call = <T>(what: string, fn: () => T): T => {
    try {
      return fn();
    } catch (error) {
      throw failed(what, error);
    }
  };
  const { sends, answers } = migration;
  const tasks = checkpoint.tasks.map((task): Task => {
    const node = rename(task.node);
    if (!task.sent || sends === undefined) return { ...task, node };
    const input = call("sends", () => sends(task.input as JsonValue, task.node as never));
    return { ...task, node, input };
  });
  const interrupts = checkpoint.interrupts?.map(
    (pending): PendingInterrupt => ({
      ...pending,
      id: renameId(pending.id),
      node: pending.ns === undefined ? rename(pending.node) : pending.node,
    }),
  );
  const resumes =
    checkpoint.resumes === undefined
      ? undefined
      : Object.fromEntries(
          Object.entries(checkpoint.resumes).map(([id, answer]) => {
            const pending = checkpoint.interrupts?.find((interrupt) => interrupt.id === id);
            const value = answers === undefined || pending === undefined ? answer : call("answers", () => answers(answer, pending));
            return [renameId(id), value];
          }),
        );
  const pendingWrites = migratedWrites(migration, checkpoint.pendingWrites ?? [], rename, call);
  const state =
    migration.state === undefined ? checkpoint.state : call("state", () => (migration.state as (old: State) => unknown)(checkpoint.state));
  const { pendingWrites: _old, ...rest } = checkpoint;
  const migrated: Checkpoint = {
    ...rest,
    state: state as State,
    tasks,
    next: tasks.map((task) => task.node),
    trace: checkpoint.trace.map(rename),
    routes: checkpoint.routes.map((route) => ({ ...route, from: rename(route.from), to: rename(route.to) })),
    joins: checkpoint.joins.map((arrived) => arrived.map(rename)),
    ...(checkpoint.deferred === undefined ? {} : { deferred: checkpoint.deferred.map((task) => ({ ...task, node: rename(task.node) })) }),
    ...(interrupts === undefined ? {} : { interrupts }),
    ...(resumes === undefined ? {} : { resumes }),
    // Without the member when none is kept, as a store writes a checkpoint with none.
    ...(pendingWrites.length === 0 ? {} : { pendingWrites }),
  };
  return migrated;
}

/**
 * The kept writes on the new version, renamed through the node map. A kept write is a partial update of
 * the old state: with a `writes` migration each update goes through it (a failure's write, which holds
 * no update, stays as it is); without one they stay as they are, unless the migration changes the state,
 * which maps a whole state and cannot be applied to a part of one: then they are dropped, and their tasks
 * run again on the migrated state.
 */
function migratedWrites(
  migration: GraphMigration,
  writes: readonly CheckpointWrite[],
  rename: (node: string) => string,
  call: <T>(what: string, fn: () => T) => T,
): CheckpointWrite[] {
  const { writes: migrate } = migration;
  if (migrate === undefined && migration.state !== undefined) return [];
  return writes.map((write): CheckpointWrite => {
    const node = rename(write.node);
    if (migrate === undefined || failureOf(write) !== undefined) return { ...write, node };
    const update = call("writes", () => {
      const migrated = (migrate as (update: State, node: string) => unknown)(write.update, write.node);
      if (typeof migrated === "object" && migrated !== null && !Array.isArray(migrated)) return migrated;
      throw new TypeError(`it returned ${describeValue(migrated)} for the kept write of ${quote(write.node)}, not an update object`);
    });
    return { ...write, node, update: update as Record<string, unknown> };
  });
}

/** How the list of a refused thread says each kind of point (a node's, read from a task or a deferred task). */
const SAID: Readonly<Record<ResumePointKind, string>> = {
  before: "the next task,",
  after: "the node it paused after,",
  interrupt: "an interrupt() paused inside",
  send: "a pending Send to",
  join: "the join into",
};

/**
 * The points where the thread would continue that this graph cannot take, said for the error's list:
 * the resume points it is at (validate/resume-points.ts, the one definition `tsg check --against` reads
 * too) whose node this graph lacks, its kept writes of such nodes, and join arrivals this graph's joins
 * cannot hold.
 */
function unmappedPoints(graph: ExecutableGraph, checkpoint: Checkpoint): string[] {
  const points = positionPoints(checkpoint, graph.spec)
    .filter((point) => point.kind !== "join" && !graph.nodes.has(point.path[0] ?? ""))
    .map((point) => `${point.at}: ${SAID[point.kind]} ${quote(point.path[0] ?? "")} (${point.id})`);
  for (const write of checkpoint.pendingWrites ?? [])
    if (!graph.nodes.has(write.node)) points.push(`pendingWrites (task ${write.task}): the kept write of ${quote(write.node)}`);
  if (checkpoint.joins.length !== graph.joins.length)
    points.push(`joins: the checkpoint records ${checkpoint.joins.length} joins and this graph has ${graph.joins.length}`);
  else
    checkpoint.joins.forEach((arrived, index) => {
      for (const node of arrived)
        if (!graph.joins[index]?.sources.has(node)) points.push(`joins[${index}]: ${quote(node)} arrived, which is not one of its sources`);
    });
  return points;
}

/** The migrated state, as the graph's state schema outputs it when the graph has one, checked to be JSON. */
function checkedState(api: string, graph: ExecutableGraph, checkpoint: Checkpoint, state: unknown): State {
  const invalid = (problem: string, cause?: unknown) =>
    new PersistenceError(
      "MIGRATION_FAILED",
      `${api}: checkpoint ${quote(checkpoint.id)} of thread ${quote(checkpoint.threadId)}, migrated to version ${graph.stamp.version}, ${problem}. ` +
        `Fix the state migration in compile({ migrations }); nothing was written.`,
      { threadId: checkpoint.threadId, checkpointId: checkpoint.id, ...(cause === undefined ? {} : { cause }) },
    );
  if (typeof state !== "object" || state === null || Array.isArray(state))
    throw invalid(`has a state that is not an object (${typeof state})`);
  const problem = findNonJson(state, "state");
  if (problem !== undefined) throw invalid(`has a state that is not JSON (${problem.path}: ${problem.what})`);
  if (graph.stateCheck === undefined) return state as State;
  const checked = checkState(graph.stateCheck, state as State, ["migrateFrom"]);
  if (!checked.ok) throw invalid(`has a state the state schema refuses: ${checked.failure.message}`, checked.failure);
  return checked.state;
}

function newerVersion(api: string, checkpoint: Checkpoint, written: number, version: number): PersistenceError {
  return new PersistenceError(
    "GRAPH_VERSION_NEWER",
    `${api}: checkpoint ${quote(checkpoint.id)} of thread ${quote(checkpoint.threadId)} was written by version ${written} of the graph, ` +
      `and this graph is version ${version}: an older build cannot continue a newer graph's thread, and nothing was written. ` +
      `Run it with a build of version ${written} or later (a rollback leaves such threads to the newer build).`,
    { threadId: checkpoint.threadId, checkpointId: checkpoint.id },
  );
}

function missingMigration(api: string, checkpoint: Checkpoint, from: number, version: number): PersistenceError {
  return new PersistenceError(
    "MIGRATION_MISSING",
    `${api}: checkpoint ${quote(checkpoint.id)} of thread ${quote(checkpoint.threadId)} is of version ${from}, and this graph (version ${version}) ` +
      `declares no migration from version ${from}; nothing was written. Declare one: ` +
      `compile({ version: ${version}, migrations: [migrateFrom(specOfVersion${from}, { from: ${from}, state, nodes })] }).`,
    { threadId: checkpoint.threadId, checkpointId: checkpoint.id },
  );
}

function unmappedResumePoints(
  api: string,
  checkpoint: Checkpoint,
  written: number,
  version: number,
  points: readonly string[],
  graph: ExecutableGraph,
): PersistenceError {
  return new PersistenceError(
    "UNMAPPED_RESUME_POINT",
    `${api}: checkpoint ${quote(checkpoint.id)} of thread ${quote(checkpoint.threadId)} (version ${written}) cannot continue on version ${version}: ` +
      `${points.length} resume point${points.length === 1 ? "" : "s"} name${points.length === 1 ? "s" : ""} nodes this graph does not have; nothing was written.\n` +
      points.map((point) => `  - ${point}`).join("\n") +
      `\nMap each old node to the node of this graph where the thread continues, in the node map of its migration: ` +
      `migrateFrom(spec, { from: ${written}, nodes: { oldName: "newName" } }). This graph's nodes: ${[...graph.nodes.keys()].map((n) => quote(n)).join(", ")}.`,
    { threadId: checkpoint.threadId, checkpointId: checkpoint.id },
  );
}
