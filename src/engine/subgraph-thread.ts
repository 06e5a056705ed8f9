/**
 * A subgraph task of a threaded run keeps its child's checkpoints on a thread of its own, under its
 * parent's (LangGraph's checkpoint namespace): `parent␟node:checkpoint:task`. So when the child
 * interrupts, the parent pauses with the child's interrupts (their ids prefixed with the task's), and
 * a resume continues the child from its own latest checkpoint: its completed supersteps never run again.
 * The namespace names the checkpoint the parent's superstep started from, so a new superstep (or a new
 * run on the thread) starts its child afresh, while a resumed or crashed one finds the same namespace.
 */
import type { TaskFrame } from "./interrupt-scope.js";
import type { Checkpoint, Checkpointer, JsonValue, PendingInterrupt } from "./checkpointer.js";

/** Between a thread id and the namespace of a subgraph's thread under it (a control character: no user thread id contains it). */
export const NAMESPACE_SEPARATOR = "\u001f";

/** The thread a subgraph task's child keeps its checkpoints on, and the answers meant for the child. */
export interface SubgraphScope {
  readonly frame: TaskFrame;
  readonly checkpointer: Checkpointer;
  /** The child's namespace under its parent's thread. */
  readonly ns: string;
  readonly threadId: string;
  /** Resume values for the child's interrupts, by the ids the child knows them by (the task's prefix removed). */
  readonly resumes: Readonly<Record<string, JsonValue>>;
}

/** Whether `threadId` is a subgraph's thread under `parent` (at any depth): what `deleteThread(parent)` removes with it. */
export function isUnderThread(threadId: string, parent: string): boolean {
  return threadId.startsWith(parent + NAMESPACE_SEPARATOR);
}

/** The thread id of a subgraph's checkpoints under `parent`. */
export function childThreadId(parent: string, ns: string): string {
  return `${parent}${NAMESPACE_SEPARATOR}${ns}`;
}

/** A fresh subgraph task's namespace: its node, the checkpoint its superstep started from, its position. */
export function freshNamespace(node: string, checkpointId: string, task: number): string {
  return `${node}:${checkpointId}:${task}`;
}

/** The node of a namespace (`node:checkpointId:task`), or `undefined` for a string that is not one. */
export function namespaceNode(ns: string): string | undefined {
  return /^(.+):[^:]+:\d+$/.exec(ns)?.[1];
}

/**
 * Where the `index`th task of `checkpoint`, a task of `node`, keeps its child's thread (when `node`
 * runs a subgraph): the namespace its interrupts name, or the one its superstep gives a fresh task (a
 * child stopped by a failure or a crash). What `getState` reads and a resume continues.
 */
export function taskNamespace(checkpoint: Pick<Checkpoint, "id" | "supersteps" | "interrupts">, node: string, index: number): string {
  const prefix = `${node}:${checkpoint.supersteps + 1}:${index}/`;
  return pausedNamespace(checkpoint.interrupts ?? [], prefix) ?? freshNamespace(node, checkpoint.id, index);
}

/**
 * The namespace of the child that interrupted in the task whose ids begin with `prefix`, if one did:
 * the first level of the `ns` its interrupts carry.
 */
export function pausedNamespace(pending: readonly PendingInterrupt[], prefix: string): string | undefined {
  return pending.find((interrupt) => interrupt.id.startsWith(prefix) && interrupt.ns !== undefined)?.ns?.[0];
}

/** Where the subgraph task running in `frame` keeps its child's checkpoints; `undefined` outside a threaded run. */
export function subgraphScope(frame: TaskFrame | undefined): SubgraphScope | undefined {
  const home = frame?.host.home;
  if (frame === undefined || home === undefined) return undefined;
  const { host, idPrefix } = frame;
  // A thread paused by an earlier version, whose child ran inside this task's own frame (its interrupt
  // ids are the task's, `node:superstep:task:call`): it resumes as it paused, the child from its START.
  const legacy = `${idPrefix.slice(0, -1)}:`;
  if (host.pending.some((interrupt) => interrupt.ns === undefined && interrupt.id.startsWith(legacy))) return undefined;
  const place = childPlace(frame, home.threadId);
  // Once the parent's superstep commits, the child's checkpoints are not needed: the thread removes them.
  host.children.add(place.threadId);
  return { frame, checkpointer: home.checkpointer, ...place };
}

/** Where a subgraph task's child runs: its namespace, its thread id, and the answers meant for it. */
export type ChildPlace = Pick<SubgraphScope, "ns" | "threadId" | "resumes">;

/**
 * Where the child of the subgraph task running in `frame` runs, under the parent's thread (or run) id
 * `parent`: the namespace its interrupts name when it paused, else a fresh one for the task's
 * superstep; its thread id; the resume values given for its interrupts, by the ids the child knows.
 */
export function childPlace(frame: TaskFrame, parent: string): ChildPlace {
  const { host, idPrefix } = frame;
  const ns = pausedNamespace(host.pending, idPrefix) ?? freshNamespace(frame.node, host.checkpointId, frame.position);
  const resumes: Record<string, JsonValue> = {};
  for (const [id, value] of Object.entries(host.resumes))
    if (id.startsWith(idPrefix)) resumes[id.slice(idPrefix.length)] = value as JsonValue;
  return { ns, threadId: childThreadId(parent, ns), resumes };
}

/** Pauses the parent's task for its child's interrupts: each id prefixed with the task's, its namespace added. */
export function pauseForChild(scope: Pick<SubgraphScope, "frame" | "ns">, interrupts: readonly PendingInterrupt[]): never {
  const { frame, ns } = scope;
  return frame.raise(
    interrupts.map((interrupt) => ({ ...interrupt, id: frame.idPrefix + interrupt.id, ns: [ns, ...(interrupt.ns ?? [])] })),
  );
}
