/** Shared by the LangGraph.js differential tests. */
import { Annotation, MemorySaver } from "@langchain/langgraph";
import type { Command, CompiledGraph, RunResult, Step, ThreadRunResult } from "../../src/index.js";
import { MemoryCheckpointer } from "../../src/persistence/index.js";
import { runOnLangGraph, type LangGraphThreadResult } from "../../src/langgraph/index.js";

/** A step as plain data (the mini engine's steps copy lazily through getters). */
export function plainSteps<S>(
  steps: readonly Step<S>[],
): { node: string; update: unknown; state: unknown; route?: unknown; goto?: readonly string[] }[] {
  return steps.map((step) => ({
    node: step.node,
    update: step.update,
    state: step.state,
    ...(step.route === undefined ? {} : { route: step.route }),
    ...(step.goto === undefined ? {} : { goto: step.goto }),
  }));
}

/** What two engines must agree on after a run. */
export function outcome<S>(result: RunResult<S>) {
  return { state: result.state, trace: result.trace, steps: plainSteps(result.steps), routes: result.routes };
}

/** What two engines must agree on when a run fails. */
export function failure(error: unknown) {
  if (!(error instanceof Error)) return { thrown: error };
  const { node, trace, state, code } = error as Error & { node?: unknown; trace?: unknown; state?: unknown; code?: unknown };
  return { name: error.name, code, message: error.message, node, trace, state };
}

/** Resolves with the outcome of a run, or the failure it rejected with. */
export async function settle<S>(run: Promise<RunResult<S>>) {
  try {
    return { ok: outcome(await run) };
  } catch (error) {
    return { failed: failure(error) };
  }
}

/** What two engines must agree on after a threaded call (checkpoint ids are each store's own; LangGraph keeps no routes). */
export function threadOutcome<S>(result: ThreadRunResult<S> | LangGraphThreadResult<S>) {
  const { checkpointId: _id, steps, ...rest } = result;
  const { routes: _routes, ...compared } = rest as typeof rest & { routes?: unknown };
  return { ...compared, steps: plainSteps(steps) };
}

export type Input<S extends object> = S | null | Command<unknown, S, string>;

/** A threaded call's outcome, or the failure it rejected with. */
async function settleThread<S>(call: Promise<ThreadRunResult<S> | LangGraphThreadResult<S>>) {
  try {
    return threadOutcome(await call);
  } catch (error) {
    return { failed: failure(error) };
  }
}

/**
 * Runs the same sequence of calls on a thread of each engine; `next` picks each call's input from the
 * mini engine's last result (the interrupt ids are the same on both, which the comparison checks). A
 * call that fails is compared as its error (class, code, message, node, trace, state); the thread
 * goes on with the next call, and `last` stays the last call that did not fail.
 */
export async function onBothEngines<S extends object>(
  build: () => { graph: CompiledGraph<S>; runs: string[] },
  first: S,
  next: readonly ((last: ThreadRunResult<S>) => Input<S>)[],
) {
  const mini = build();
  const lang = build();
  const checkpointer = new MemoryCheckpointer();
  const saver = new MemorySaver();
  const miniResults: unknown[] = [];
  const langResults: unknown[] = [];
  let last: ThreadRunResult<S> | undefined;
  for (const input of [() => first, ...next]) {
    const command = input(last as ThreadRunResult<S>) as S;
    const onMini = mini.graph.invoke(command, { threadId: "t", checkpointer });
    miniResults.push(await settleThread(onMini));
    last = await onMini.catch(() => last);
    langResults.push(await settleThread(runOnLangGraph(lang.graph, command, { threadId: "t", checkpointer: saver })));
  }
  return { mini: miniResults, langGraph: langResults, miniRuns: mini.runs, langGraphRuns: lang.runs, last: last as ThreadRunResult<S> };
}

/** A call's result without the interrupts' `ns` (each engine names its namespaces its own way). */
export function withoutNs(result: unknown): unknown {
  const { interrupt, ...rest } = result as { interrupt?: { interrupts?: { ns?: unknown }[] } };
  if (interrupt === undefined) return rest;
  return { ...rest, interrupt: { ...interrupt, interrupts: interrupt.interrupts?.map(({ ns: _ns, ...p }) => p) } };
}

/** Wraps node functions so that each run of one is recorded in `runs` by name (what a resume runs again). */
export function counting(runs: string[]) {
  return <A extends unknown[], R>(name: string, node: (...args: A) => R) =>
    (...args: A): R => {
      runs.push(name);
      return node(...args);
    };
}

/** A `{ log: string[] }` state on LangGraph.js, its reducer appending as `append` does here. */
export const LogAnnotation = Annotation.Root({ log: Annotation<string[]>({ reducer: (a, b) => [...a, ...b], default: () => [] }) });

/** A natively written LangGraph.js graph over `{ log }`, as the differential tests call it. */
export type NativeLogGraph = { invoke(input: { log: string[] }): Promise<{ log: string[] }> };

/** A node that logs its name. */
export const logStep = (name: string) => (): { log: string[] } => ({ log: [name] });
