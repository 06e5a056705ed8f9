/**
 * The engines a command can run a graph on. Each one is loaded only when chosen, so `--engine mini`
 * never loads XState or LangGraph, and a choice never falls back silently to another engine.
 */
import type { CompiledGraph, Step } from "../index.js";
import { UsageError } from "./io.js";
import { importPeer, XSTATE } from "./peers.js";

/** Every engine `--engine` can name. */
export const ENGINES = ["mini", "xstate", "langgraph"] as const;

/** An engine a command can run on. */
export type Engine = (typeof ENGINES)[number];

/** The engines that run parallel (fan-out) graphs: the others refuse them. */
export const PARALLEL_ENGINES = ["mini", "xstate", "langgraph"] as const satisfies readonly Engine[];

/**
 * Streams a run's steps on the chosen engine. Every engine yields the same steps and throws the same
 * errors as the mini engine; an engine that cannot export the graph throws a {@link UsageError}
 * saying why (exit code 2).
 *
 * @example
 * ```ts
 * for await (const step of streamOnEngine("xstate", graph, input, { maxSteps: 30 })) console.log(step.node);
 * ```
 */
export async function* streamOnEngine<S extends object>(
  engine: Engine,
  graph: CompiledGraph<S>,
  input: S,
  options: { readonly maxSteps?: number },
): AsyncGenerator<Step<S>> {
  if (engine === "mini") {
    yield* graph.stream(input, options);
    return;
  }
  if (engine === "xstate") {
    const { streamOnXState, XStateExportError } = await importPeer("--engine xstate", XSTATE, () => import("../xstate/index.js"));
    yield* refusalsAsUsageErrors(streamOnXState(graph, input, options), XStateExportError);
    return;
  }
  const { streamOnLangGraph, LangGraphInteropError } = await import("../langgraph/index.js");
  yield* refusalsAsUsageErrors(streamOnLangGraph(graph, input, options), LangGraphInteropError);
}

async function* refusalsAsUsageErrors<T>(steps: AsyncIterable<T>, refusal: new (...args: never[]) => Error): AsyncGenerator<T> {
  try {
    yield* steps;
  } catch (error) {
    if (error instanceof refusal) throw new UsageError(error.message);
    throw error;
  }
}
