/**
 * Differential exploration: a generated run, once it passed on the mini engine, runs again on another
 * engine (XState, LangGraph.js) with the same input and the same node outcomes, call by call; the two
 * must end in equal states (and with the same error code, when the run ends with an expected error).
 * A run that paused is not compared: those engines run it without a thread, where it cannot pause.
 */
import type { CompiledGraph, RunResult } from "../../engine/index.js";
import { GraphError, GraphExecutionError, InvalidOptionError } from "../../errors.js";
import { deepEqual } from "../_internals/equality.js";
import { describeEnd } from "./report.js";
import { Draws, nodeSource, withDrawnOutcomes, type DrawSources } from "./run-once.js";
import type { DifferentialEngine, ExploredRun } from "./types.js";

/** The engines a differential exploration can compare the mini engine with. */
export const DIFFERENTIAL_ENGINES: readonly DifferentialEngine[] = ["xstate", "langgraph"];

/** How a run ended, as two engines are compared: its state, and the error code when it failed. */
export interface RunEnd {
  readonly state: unknown;
  readonly error?: string;
}

type Runner = (graph: CompiledGraph<object>, input: object, options: { readonly maxSteps?: number }) => Promise<RunResult<object>>;

/** Loads each requested engine's runner once per exploration (their packages are optional peers). */
export async function loadRunners(engines: readonly DifferentialEngine[]): Promise<ReadonlyMap<DifferentialEngine, Runner>> {
  const runners = new Map<DifferentialEngine, Runner>();
  for (const engine of engines) {
    if (!DIFFERENTIAL_ENGINES.includes(engine)) {
      throw new InvalidOptionError(
        `exploreGraph: options.differential names "${String(engine).slice(0, 40)}"; the engines are ${DIFFERENTIAL_ENGINES.map((name) => `"${name}"`).join(", ")}.`,
      );
    }
    try {
      runners.set(
        engine,
        engine === "xstate"
          ? (await import("../../xstate/index.js")).runOnXState
          : (await import("../../langgraph/index.js")).runOnLangGraph,
      );
    } catch (error) {
      throw new InvalidOptionError(
        `exploreGraph: options.differential asks for ${engine}, which could not be loaded (${error instanceof Error ? error.message.slice(0, 200) : String(error)}); install ${engine === "xstate" ? "xstate" : "@langchain/langgraph"}, or leave ${engine} out.`,
      );
    }
  }
  return runners;
}

/**
 * The first engine on which `run` ends otherwise than on the mini engine, as a sentence naming both
 * ends; `undefined` when every engine agrees or the run paused (not compared).
 */
export async function engineDifference<S extends object, N extends string>(
  graph: CompiledGraph<S, N>,
  run: ExploredRun<S>,
  runners: ReadonlyMap<DifferentialEngine, Runner>,
  maxSteps: number | undefined,
): Promise<string | undefined> {
  if (run.paused) return undefined;
  const mini: RunEnd = { state: run.state, ...(run.error === undefined ? {} : { error: run.error }) };
  for (const [engine, runner] of runners) {
    const replay = replayed(graph, run);
    let end: RunEnd;
    try {
      const result = await runner(replay as unknown as CompiledGraph<object>, run.input, maxSteps === undefined ? {} : { maxSteps });
      end = { state: result.state };
    } catch (error) {
      // A run's error carries the state it stopped at; any other (the graph cannot be exported, say) is no end to compare.
      if (!(error instanceof GraphExecutionError)) {
        const what = error instanceof GraphError ? `${error.code}: ${error.message}` : String(error);
        return `the run could not run on ${engine} (${what.slice(0, 400)}); the mini engine ended with ${describeEnd(mini)}`;
      }
      end = { state: error.state, error: error.code };
    }
    if (!deepEqual(end, mini))
      return `the run ends otherwise on ${engine}: the mini engine ended with ${describeEnd(mini)}, ${engine} with ${describeEnd(end)}`;
  }
  return undefined;
}

/** The graph with each replaced node returning the run's recorded outcomes, call by call. */
function replayed<S extends object, N extends string>(graph: CompiledGraph<S, N>, run: ExploredRun<S>): CompiledGraph<S, N> {
  const exhausted = (key: string): never => {
    throw new InvalidOptionError(
      `exploreGraph: ${key.slice(key.indexOf(":") + 1)} was called more often on this engine than on the mini engine.`,
    );
  };
  const lists: Record<string, readonly unknown[]> = {};
  const sources: DrawSources<S>["nodes"] = new Map(
    Object.entries(run.outcomes).map(([node, outcomes]) => {
      lists[nodeSource(node)] = outcomes;
      return [node, () => exhausted(nodeSource(node))] as const;
    }),
  );
  const draws = new Draws<S>({ input: run.input, lists, more: (key) => exhausted(key) });
  return withDrawnOutcomes(graph, draws, sources, {});
}
