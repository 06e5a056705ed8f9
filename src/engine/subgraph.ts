/**
 * A compiled graph used as a node of another graph. The child runs with its own limits; its result
 * comes back to the parent as one update; its errors reach the parent with their path (`parent/child`).
 * In a threaded run the child runs on a thread of its own under the parent's, so an `interrupt()`
 * inside it pauses the parent and a resume continues the child where it stopped (`subgraph-thread.ts`).
 */
import { executableOf, noThreadSettings, threadSettingsOf, type CompiledGraph } from "./compiled-graph.js";
import { childPauseRefusal } from "./kernel/pauses.js";
import { currentFrame, currentInterruptFrame, inLentFrame } from "./interrupt-scope.js";
import { NodePaused } from "./node-paused.js";
import type { NodeContext } from "./context.js";
import type { RunSettings } from "./run-settings.js";
import type { RunOptions, Step } from "./run-types.js";
import { recordSubgraph } from "./subgraph-specs.js";
import { streamChild } from "./subgraph-stream.js";
import { threadRequired } from "./threads/thread-options.js";
import { foldUpdates } from "./subgraph-output.js";
import { pauseForChild, subgraphScope } from "./subgraph-thread.js";
import { runChildThread } from "./threads/child-thread.js";
import type { State } from "./step.js";
import { TaskContext } from "./task-context.js";
import type { AnyCommand } from "./command.js";
import { handoffFrom } from "./command-parent.js";

/** How a subgraph node maps the parent's state in and the child's result out; `O` is what `output` returns. */
export interface SubgraphOptions<P, C, O extends Partial<P> = Partial<P>> extends Pick<RunOptions, "maxSteps" | "recursionLimit"> {
  /** The child's input, from the parent's state. Default: the parent's state as it is (shared state). */
  readonly input?: (parent: P) => C;
  /**
   * The parent's update, from the child's final state. Default (shared state): the fields the child's
   * nodes wrote, each folded with the child's reducer for that field (so an `append` field receives only
   * the new items), or the last value written when the field has no reducer.
   */
  readonly output?: (child: C, parent: P) => O;
}

/**
 * Type-level only: `output`'s keys are fields of the parent's state. The compiler reports an unknown key
 * of a fresh object literal only when the literal shares no field with the parent's; this also catches a
 * misspelled key beside a valid one, and an `output` that is a function declared apart. `unknown` when
 * each key is a field, else a property whose name is the message (the options lack it).
 */
export type OutputFieldsCheck<O, P> = [Exclude<keyof O, keyof P>] extends [never]
  ? unknown
  : {
      readonly [K in `subgraph: output returns "${Exclude<keyof O, keyof P> & string}", which is not a field of the parent's state; return only the parent's fields`]: never;
    };

declare const parentState: unique symbol;

/**
 * Carries the parent's state type of a {@link SubgraphNode}. A type-level brand only: the property
 * does not exist at run time. `addNode` accepts it next to node functions, so that
 * `subgraph(child, { input: (s) => … })` infers `s` as the parent's state without an annotation.
 */
export interface ParentState<P> {
  readonly [parentState]: P;
}

/** A node function made by {@link subgraph}: it runs the child graph and returns the parent's update. */
export type SubgraphNode<P> = ((state: P) => Promise<Partial<P>>) & ParentState<P>;

/**
 * Turns a compiled graph into a node function. `addNode(name, compiledGraph)` does this with the
 * defaults; call it yourself to map between different state types.
 *
 * @example
 * ```ts
 * const specialist = stateGraph<Research>()({ reducers: { findings: union } })…compile();
 * parent.addNode("specialist", subgraph(specialist, { maxSteps: 5 }));
 * parent.addNode("summary", subgraph(summarizer, { input: (s) => ({ text: s.findings.join("\n") }), output: (c) => ({ summary: c.summary }) }));
 * ```
 */
export function subgraph<P extends object, C extends object, O extends Partial<P> = Partial<P>>(
  child: CompiledGraph<C>,
  given?: SubgraphOptions<P, C, O> & NoInfer<OutputFieldsCheck<O, P>>,
): SubgraphNode<P> {
  const options: SubgraphOptions<P, C, O> = given ?? {};
  const executable = executableOf(child);
  const { reducers } = executable;
  const refusal = childPauseRefusal("subgraph", undefined, threadSettingsOf(child));
  const limits = {
    ...(options.maxSteps === undefined ? {} : { maxSteps: options.maxSteps }),
    ...(options.recursionLimit === undefined ? {} : { recursionLimit: options.recursionLimit }),
  };
  // A child's node that hands off (Command.PARENT) ends the child's run: its handoff is this node's Command.
  const runSubgraph = async function runSubgraph(parent: P, context?: NodeContext): Promise<Partial<P> | AnyCommand> {
    try {
      return await runChild(parent, context);
    } catch (error) {
      const handoff = handoffFrom(error);
      if (handoff === undefined) throw error;
      return handoff.command();
    }
  };
  const runChild = async function runChild(parent: P, context?: NodeContext): Promise<Partial<P>> {
    const input = options.input ? options.input(parent) : (parent as unknown as C);
    const scope = subgraphScope(currentFrame());
    // A driver that keeps the child's checkpoints itself (the LangGraph export, in a threaded run).
    const onDriver = scope === undefined ? currentInterruptFrame()?.runChild?.(child, input, limits, refusal) : undefined;
    if (onDriver !== undefined) {
      const outcome = await onDriver;
      return options.output ? options.output(outcome.state as C, parent) : (outcome.update as Partial<P>);
    }
    // A parent's stream with `subgraphs: true` streams the child's chunks too.
    const stream = context instanceof TaskContext ? context.childStream() : undefined;
    if (scope === undefined && stream !== undefined) {
      if (threadSettingsOf(child) !== noThreadSettings) throw threadRequired("invoke", threadSettingsOf(child));
      const result = await inFrame(() => streamChild(executable, input, observed(limits, context, false), stream));
      return options.output ? options.output(result.state as C, parent) : (result.update as Partial<P>);
    }
    if (scope === undefined) {
      const result = await inFrame(() => child.invoke(input, observed(limits, context)));
      if (options.output) return options.output(result.state, parent);
      return foldUpdates(reducers, {}, result.steps as Step<State>[]) as Partial<P>;
    }
    if (refusal !== undefined) throw refusal;
    const outcome = await runChildThread(executable, input, scope, observed(limits, context, stream === undefined), stream);
    if (outcome.status === "interrupted") return pauseForChild(scope, outcome.interrupts);
    if (options.output) return options.output(outcome.state as C, parent);
    return outcome.update as Partial<P>;
  };
  recordSubgraph(runSubgraph, child.spec, executable);
  return runSubgraph as SubgraphNode<P>;
}

/**
 * The child run without a thread of its own (`body`). Inside a task's interrupt frame (a durable driver's
 * task under a policy, a thread paused by an earlier version) the child's nodes ask the task's own frame,
 * so a child's `interrupt()` pauses the task. The child's run reports that as its node's failure; the task
 * paused, and throws what a task whose own node asked throws: a `NodePaused`, never retried.
 */
async function inFrame<R>(body: () => Promise<R>): Promise<R> {
  const frame = currentFrame();
  try {
    return await inLentFrame(body);
  } catch (error) {
    if (frame?.paused === true) throw new NodePaused(`subgraph: "${frame.node}" paused, waiting for a resume value`, { cause: error });
    throw error;
  }
}

/**
 * The child run's options: the parent run's observer, with the subgraph node as the child run's parent,
 * and (`forward`) the parent's event sink, so the child's custom events reach the parent's stream. A
 * child streamed with `subgraphs: true` has a sink of its own instead.
 */
function observed(limits: RunOptions, context: NodeContext | undefined, forward = true): RunOptions {
  if (!(context instanceof TaskContext)) return limits;
  const { observer } = context;
  const sink = forward ? context.childSink() : undefined;
  if (observer === undefined && sink === undefined) return limits;
  // RunSettings travel through invoke to the child's Run: `parent` is how its observer finds the parent span.
  const settings: RunSettings = {
    ...limits,
    ...(observer === undefined ? {} : { observer, parent: context }),
    ...(sink === undefined ? {} : { sink }),
  };
  return settings;
}
