/**
 * Where a paused run stands, recorded with each of its stops beside the state and trace the caller
 * reads, so that a worker of a later application version can continue it (`continue.ts`): DBOS
 * recovers a workflow only in a process of the version that started it, so a v2 worker never replays a
 * v1 workflow. It reads the stop instead, as a checkpoint of the graph version that recorded it,
 * migrates that through the graph's migrations (the threads' rules, `migrateFrom`), and starts a new
 * workflow from the result ({@link ContinuedFrom}), which pauses where the old one stood.
 */
import { sendInputCodec, type Run, type RunSnapshot, type SuperstepPaused, type Task } from "../engine/_kernel.js";
import type { Checkpoint, JsonValue } from "../engine/index.js";
import type { DBOSInterrupt, Outcome, PausedAt } from "./_outcome.js";

/** A stop where a run paused, as {@link Outcome} records it. */
export type PausedOutcome = Extract<Outcome, { status: "interrupted" }>;

/** What a continued workflow starts from: where the old run stood, as this graph's version reads it. */
export interface ContinuedFrom {
  /** The workflow it continues. */
  readonly workflowId: string;
  /** The graph version that recorded the stop. */
  readonly version: number;
  /** The run's snapshot (a `Send`'s Command input in its stored form). */
  readonly snapshot: RunSnapshot;
  readonly interrupt: DBOSInterrupt;
  /** The nodes of the last superstep. */
  readonly last: readonly string[];
  readonly routesBefore: number;
  readonly writes?: SuperstepPaused["writes"];
  readonly resumes?: Readonly<Record<string, JsonValue>>;
}

/** What a stop at `run` records; `inside`: the superstep paused inside nodes, with these finished tasks and answers. */
export function pausedAt(
  run: Run,
  routesBefore: number,
  inside?: { readonly writes: SuperstepPaused["writes"]; readonly resumes: Readonly<Record<string, unknown>> },
): PausedAt {
  const { tasks, joins, deferred } = run.snapshot();
  return {
    graph: run.stamp,
    tasks: stored(tasks),
    joins,
    ...(deferred === undefined ? {} : { deferred: stored(deferred) }),
    routesBefore,
    ...(inside === undefined ? {} : { writes: inside.writes, resumes: inside.resumes as Readonly<Record<string, JsonValue>> }),
  };
}

/** The stop as a checkpoint of the graph version that recorded it, for the threads' migrations to read. */
export function recordedCheckpoint(workflowId: string, stop: PausedOutcome, at: PausedAt): Checkpoint {
  const { state, trace, routes, supersteps } = stop.run;
  const inside = stop.interrupt.when === "during";
  return {
    id: `stop ${stop.pause}`,
    parentId: null,
    threadId: workflowId,
    step: stop.pause,
    createdAt: new Date(0).toISOString(),
    metadata: { source: inside ? "interrupt" : "loop", writes: stop.last },
    state,
    trace,
    routes,
    supersteps,
    tasks: at.tasks,
    next: at.tasks.map((task) => task.node),
    joins: at.joins,
    graph: at.graph,
    ...(at.deferred === undefined ? {} : { deferred: at.deferred }),
    ...(inside ? { interrupts: stop.interrupt.interrupts ?? [] } : {}),
    ...(at.resumes === undefined ? {} : { resumes: at.resumes }),
    ...(at.writes === undefined || at.writes.length === 0 ? {} : { pendingWrites: at.writes }),
  };
}

/**
 * Where the continued workflow starts: `migrated` (the stop's checkpoint as this graph reads it), its
 * pause said in this graph's node names. A migration keeps every list's positions, so the nodes a
 * static pause named are found where they stood among the tasks (before) or the trace (after).
 */
export function continuedFrom(workflowId: string, stop: PausedOutcome, at: PausedAt, migrated: Checkpoint): ContinuedFrom {
  const { trace } = stop.run;
  const last = migrated.trace.slice(trace.length - stop.last.length);
  const { interrupt } = stop;
  const named = (old: readonly string[], renamed: readonly string[]) => [
    ...new Set(old.flatMap((node, index) => (interrupt.nodes.includes(node) ? [renamed[index] as string] : []))),
  ];
  const interrupts = migrated.interrupts ?? [];
  const nodes =
    interrupt.when === "during"
      ? [...new Set(interrupts.map((pending) => pending.node))]
      : interrupt.when === "before"
        ? named(
            at.tasks.map((task) => task.node),
            migrated.tasks.map((task) => task.node),
          )
        : named(stop.last, last);
  const { state, tasks, routes, supersteps, joins, deferred } = migrated;
  return {
    workflowId,
    version: at.graph.version,
    snapshot: { state, tasks, trace: migrated.trace, routes, supersteps, joins, ...(deferred === undefined ? {} : { deferred }) },
    interrupt: { when: interrupt.when, nodes, ...(interrupt.when === "during" ? { interrupts } : {}) },
    last,
    routesBefore: at.routesBefore,
    ...(migrated.pendingWrites === undefined ? {} : { writes: migrated.pendingWrites }),
    ...(migrated.resumes === undefined ? {} : { resumes: migrated.resumes }),
  };
}

/** The snapshot a continued run restores: a `Send`'s stored Command input made a Command again. */
export function restoredSnapshot(from: ContinuedFrom): RunSnapshot {
  const restore = (tasks: readonly Task[]) =>
    tasks.map((task) => (task.sent ? { ...task, input: sendInputCodec.restored(task.input) } : task));
  const { snapshot } = from;
  return {
    ...snapshot,
    tasks: restore(snapshot.tasks),
    ...(snapshot.deferred === undefined ? {} : { deferred: restore(snapshot.deferred) }),
  };
}

function stored(tasks: readonly Task[]): readonly Task[] {
  return tasks.map((task) => (task.sent ? { ...task, input: sendInputCodec.stored(task.input) } : task));
}
