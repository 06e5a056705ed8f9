/**
 * Replaying a planned path on a real engine: the same nodes and reducers, with each router replaced
 * by a script that returns the path's next key. This is how a plan becomes tests.
 */
import { compileGraph, executableOf, type CompiledGraph } from "../engine/compiled-graph.js";
import type { RouterFunction } from "../engine/executable.js";
import { DEFAULT_MAX_STEPS, type RunOptions, type RunResult } from "../engine/run.js";
import type { RouteTaken } from "../engine/step.js";
import { CoverageError } from "./errors.js";

/** The route choices to force, in order: a planned path, or a list of `{ from, key }`. */
export type RouteScript = { readonly routes: readonly Pick<RouteTaken, "from" | "key">[] } | readonly Pick<RouteTaken, "from" | "key">[];

/** A runner with `graph.invoke`'s shape, such as `runOnXState` from `typed-state-graph/xstate`. */
export type GraphRunner<S extends object> = (graph: CompiledGraph<S>, input: S, options: RunOptions) => Promise<RunResult<S>>;

/** Options of {@link replayPath}. */
export interface ReplayOptions<S extends object> extends RunOptions {
  /** The engine to replay on. Default: the mini engine (`graph.invoke`). */
  readonly run?: GraphRunner<S>;
}

/**
 * The graph with its routers replaced by a script: the `n`-th choice any router is asked for is the
 * script's `n`-th, which must be that router's source. Nodes and reducers are the graph's own. The
 * script is consumed as the run goes, so the returned graph replays one run; build another for the next.
 *
 * @example
 * ```ts
 * const scripted = scriptedGraph(graph, [{ from: "check_draft", key: "revise" }, { from: "check_draft", key: "hold" }]);
 * await runOnXState(scripted, initialReportState(), { maxSteps: 30 });
 * ```
 */
export function scriptedGraph<S extends object>(graph: CompiledGraph<S>, script: RouteScript): CompiledGraph<S> {
  const choices = "routes" in script ? script.routes : script;
  const executable = executableOf(graph);
  let next = 0;
  const routerFor =
    (source: string): RouterFunction<never> =>
    () => {
      const choice = choices[next];
      if (choice === undefined) {
        throw new CoverageError(
          "REPLAY_DIVERGED",
          `scriptedGraph: the router after "${source}" was asked for a choice after the script's last one (${choices.length}). ` +
            "A scripted graph replays one run: build a new one for each run, and script every choice up to END.",
        );
      }
      if (choice.from !== source) {
        throw new CoverageError(
          "REPLAY_DIVERGED",
          `scriptedGraph: choice #${next + 1} of the script is for "${choice.from}", but the run asked the router after "${source}". ` +
            "Script the choices in the order the run makes them (a planned path's routes are).",
        );
      }
      next += 1;
      return choice.key;
    };
  return compileGraph<S>({
    spec: graph.spec,
    nodes: Object.fromEntries(executable.nodes),
    routers: Object.fromEntries(graph.spec.routes.map((route) => [route.from, routerFor(route.from)])),
    reducers: Object.fromEntries(executable.reducers),
  });
}

/**
 * Runs a planned path: forces the path's route keys, runs the graph's own nodes, and checks that the run
 * followed the path. Nodes that verify their own preconditions still do, so a path the input cannot
 * take fails in the node that notices.
 *
 * @throws CoverageError `REPLAY_DIVERGED` when the run's trace differs from the path's; otherwise the
 * engine's own errors.
 * @example
 * ```ts
 * for (const path of coveragePlan(graph).paths) {
 *   const { trace } = await replayPath(graph, path, initialReportState(), { run: runOnXState });
 * }
 * ```
 */
export async function replayPath<S extends object>(
  graph: CompiledGraph<S>,
  path: { readonly trace: readonly string[]; readonly routes: readonly Pick<RouteTaken, "from" | "key">[] },
  input: S,
  options: ReplayOptions<S> = {},
): Promise<RunResult<S>> {
  const { run = (g, i, o) => g.invoke(i, o), ...runOptions } = options;
  // A path may be longer than the default limit; the limit is a guard, not part of the path.
  const limits: RunOptions = { ...runOptions, maxSteps: runOptions.maxSteps ?? Math.max(DEFAULT_MAX_STEPS, path.trace.length) };
  const result = await run(scriptedGraph(graph, path), input, limits);
  if (result.trace.length !== path.trace.length || result.trace.some((node, i) => node !== path.trace[i])) {
    throw new CoverageError(
      "REPLAY_DIVERGED",
      `replayPath: the run went ${result.trace.join(" → ")} instead of ${path.trace.join(" → ")}. ` +
        "The path and the graph disagree: plan the path from this graph.",
    );
  }
  return result;
}
