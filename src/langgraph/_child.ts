/**
 * A subgraph node's child on LangGraph.js, in a threaded run. The child is exported as a LangGraph
 * graph of its own (without a checkpointer: it inherits its parent's) and run inside the parent's
 * task, so LangGraph keeps its checkpoints under the task's `checkpoint_ns`, as for any subgraph called
 * from a node. A pause inside the child pauses the parent's task; on resume the parent's task runs again,
 * runs the child again, and LangGraph resumes the child from its own latest checkpoint: the child's
 * completed supersteps do not run again, as on the mini engine.
 *
 * The child runs as a run of its own (`_run.ts`), as the mini engine runs a child on its own thread:
 * its bounds are checked before each of its supersteps (counted since the child's START, across
 * resumes), and a failure inside it is the mini engine's error for the child's run, which the parent's
 * task reports with its path (`parent/child`), its code and its class, as on the mini engine.
 *
 * What the child hands its parent stays the mini engine's: by default the fields its nodes wrote, each
 * folded with the child's reducer. LangGraph returns only the child's final state, so the exported
 * child keeps that fold in a hidden channel (`CHILD_UPDATE`, `_hidden.ts`) that its wrapped nodes also write:
 * it lives in the child's checkpoints, so a resumed child still returns what its earlier supersteps wrote.
 */
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import type { State, SubgraphLimits } from "../engine/_kernel.js";
import type { CustomEvent } from "../engine/index.js";
import { CHILD_UPDATE } from "./_hidden.js";
import type { LangGraphModule } from "./_load.js";
import { RunRecorder } from "./_recorder.js";
import { LangGraphRun } from "./_run.js";
import { hasCheckpoint, runSoFar, type LangGraphThread } from "./_thread.js";
import type { ChildExport, ChildGraph, LangGraphRunOptions } from "./_types.js";

/** The parent's task a child runs in: its LangGraph config, and where the run keeps interrupt names. */
export interface ParentTask {
  readonly lg: LangGraphModule;
  readonly children: ChildExport;
  /** LangGraph's config of the parent's task (its thread, checkpointer, namespace, whether it resumes). */
  readonly config: unknown;
  /** The `defineInterrupt` names of the run's paused tasks, the child's included (LangGraph keeps none). */
  readonly interruptNames: Map<string, string>;
}

/**
 * Runs the exported child inside the current LangGraph task, as a run of its own with the subgraph's
 * bounds. Its nodes are gated by the child's run, not the parent's (their tasks are the child's).
 * Rejects with LangGraph's `GraphInterrupt` when the child paused, with the mini engine's
 * GraphExecutionError (or GraphLimitError…) for the child's run when it failed.
 */
export async function runChild(
  child: ChildGraph,
  input: unknown,
  limits: SubgraphLimits,
  parent: ParentTask,
): Promise<{ state: State; update: State }> {
  const thread = childThread(child, parent);
  // LangGraph resumes the child from its checkpoint when the parent's task resumes; else it starts anew.
  const resuming = configurable(parent.config)["__pregel_resuming"] === true && thread !== undefined && (await hasCheckpoint(thread));
  const before = resuming ? await runSoFar(thread, "invoke") : { trace: [], supersteps: 0 };
  const run = new LangGraphRun(
    { executable: child.executable, langGraph: () => Promise.resolve(child.graph) },
    { input, checkInput: !resuming, configurable: {}, ...before },
    forwardingEvents(limits, parent.config),
    "invoke",
    new RunRecorder(parent.interruptNames),
  );
  for await (const _step of run.steps());
  return { state: run.state, update: (run.values[CHILD_UPDATE] ?? {}) as State };
}

/**
 * Hands a child's custom events (which its run reads on its own stream) to the parent's task's writer,
 * so they reach the top-level run's listener as a LangGraph subgraph's do.
 */
function forwardingEvents(limits: SubgraphLimits, config: unknown): LangGraphRunOptions {
  const writer = typeof config === "object" && config !== null ? (config as { writer?: unknown }).writer : undefined;
  if (typeof writer !== "function") return limits;
  return { ...limits, onCustomEvent: (event: CustomEvent) => writer({ node: event.node, event: event.event }) };
}

/** The child's thread under its parent's (LangGraph's namespace of the parent's task), to read its history. */
function childThread(child: ChildGraph, parent: ParentTask): LangGraphThread | undefined {
  const { thread_id: threadId, checkpoint_ns: ns, __pregel_checkpointer: checkpointer } = configurable(parent.config);
  if (typeof threadId !== "string" || typeof ns !== "string" || checkpointer === undefined) return undefined;
  return {
    lg: parent.lg,
    graph: child.graph,
    checkpointer: checkpointer as BaseCheckpointSaver,
    threadId,
    executable: child.executable,
    settings: { interruptBefore: new Set(), interruptAfter: new Set() },
    children: parent.children,
    ns,
  };
}

export function configurable(config: unknown): Record<string, unknown> {
  const value = typeof config === "object" && config !== null ? (config as { configurable?: unknown }).configurable : undefined;
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
}
