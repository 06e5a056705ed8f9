/**
 * Replaying a planned path (or planned run) on a real engine: the same nodes and reducers, with each
 * router replaced by a script that returns the plan's next key(s). This is how a plan becomes tests.
 */
import {
  CompiledGraph,
  DEFAULT_MAX_STEPS,
  Send,
  type Interrupt,
  type RouteTaken,
  type RunOptions,
  type RunResult,
  type ThreadRunOptions,
  type ThreadRunResult,
} from "../engine/index.js";
import { graphView, type Transition } from "../engine/_kernel.js";
import { isThenable } from "../_thenable.js";
import type { RouteSpec } from "../spec.js";
import { CoverageError } from "./errors.js";
import type { RouteChoice } from "./path.js";

/** One scripted router call: one key (`{ from, key }`), or the key(s) of a planned run's choice (`{ from, keys }`). */
export type ScriptedChoice = Pick<RouteTaken, "from" | "key"> | RouteChoice;

/**
 * The router calls to force, in order: a planned path or run (its `choices`, else its `routes`), or a
 * list of `{ from, key }` / `{ from, keys }`.
 */
export type RouteScript =
  | { readonly choices: readonly RouteChoice[] }
  | { readonly routes: readonly Pick<RouteTaken, "from" | "key">[] }
  | readonly ScriptedChoice[];

/** A runner with `graph.invoke`'s shape, such as `runOnXState` from `typed-state-graph/xstate`. */
export type GraphRunner<S extends object> = (graph: CompiledGraph<S>, input: S, options: RunOptions) => Promise<RunResult<S>>;

/**
 * Options of {@link replayPath}: a plain run's, or a threaded run's (`{ threadId }`, and a checkpointer
 * unless the graph was compiled with one), plus the engine to replay on.
 */
export type ReplayOptions<S extends object> = (RunOptions | ThreadRunOptions) & {
  /** The engine to replay on. Default: the mini engine (`graph.invoke`). */
  readonly run?: GraphRunner<S>;
};

/**
 * The graph with its routers replaced by a script: the `n`-th choice any router is asked for is the
 * script's `n`-th, which must be that router's source. A choice of one key returns that key; a choice
 * of several returns them as a list, so their nodes run together. Nodes and reducers are the graph's
 * own. The script is consumed as the run goes, so the returned graph replays one run; build another
 * for the next.
 *
 * The scripted graph keeps the graph's compile options: its checkpointer, `interruptBefore` and
 * `interruptAfter`, node policies (`retry`, `timeout`, cache) and cache store. Only the routers change.
 *
 * A router declared with a list of destinations may return `Send`s, whose node reads the Send's input
 * rather than the state. There the scripted router asks the graph's own router and returns, for each
 * scripted key, the first Send it made to that node (so the node runs once, with a real input), or the
 * plain key when it made none (the node then reads the state).
 *
 * @example
 * ```ts
 * const scripted = scriptedGraph(graph, [{ from: "check_draft", key: "revise" }, { from: "check_draft", key: "hold" }]);
 * await runOnXState(scripted, initialReportState(), { maxSteps: 30 });
 * ```
 */
export function scriptedGraph<S extends object>(graph: CompiledGraph<S>, script: RouteScript): CompiledGraph<S> {
  const choices = scriptedChoices(script);
  const executable = graphView(graph).executable;
  let next = 0;
  const take = (source: string): readonly string[] => {
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
          "Script the choices in the order the run makes them (a planned path's choices are).",
      );
    }
    next += 1;
    return "keys" in choice ? choice.keys : [choice.key];
  };
  const scriptedRouter = (from: string, own: (state: unknown) => unknown, sends: boolean) => (state: unknown) => {
    const keys = take(from);
    const plain = keys.length === 1 ? keys[0] : [...keys];
    if (!sends) return plain;
    let returned: unknown;
    try {
      returned = own(state);
    } catch {
      return plain;
    }
    return isThenable(returned)
      ? Promise.resolve(returned).then(
          (value) => withSends(keys, value),
          () => plain,
        )
      : withSends(keys, returned);
  };
  const sendsFrom = new Set(graph.spec.routes.filter((route: RouteSpec) => route.sends === true).map((route) => route.from));
  // Only the routers change: the executable's other tables (nodes, reducers, policies, cache store) and the
  // thread settings are what compile() fixed for the graph, so the replay runs under the same options.
  const transitions = new Map<string, Transition>(
    [...executable.transitions].map(([from, transition]) => [
      from,
      transition.kind === "route"
        ? { ...transition, router: scriptedRouter(from, transition.router as (state: unknown) => unknown, sendsFrom.has(from)) }
        : transition,
    ]),
  );
  return new CompiledGraph<S>(graph.spec, { ...executable, transitions }, graph.warnings, graphView(graph).settings);
}

function scriptedChoices(script: RouteScript): readonly ScriptedChoice[] {
  if (Array.isArray(script)) return script as readonly ScriptedChoice[];
  const planned = script as { readonly choices?: readonly RouteChoice[]; readonly routes?: readonly Pick<RouteTaken, "from" | "key">[] };
  return planned.choices ?? planned.routes ?? [];
}

/** The scripted keys, each as the first Send the graph's own router made to it, in the shape it returned (a list or one). */
function withSends(keys: readonly string[], returned: unknown): unknown {
  const sends = (Array.isArray(returned) ? (returned as unknown[]) : [returned]).filter((item): item is Send => item instanceof Send);
  const chosen = keys.map((key) => sends.find((send) => send.node === key) ?? key);
  return chosen.length === 1 && !Array.isArray(returned) ? chosen[0] : chosen;
}

/**
 * Runs a planned path (or planned run): forces its route keys, runs the graph's own nodes, and checks
 * that the run followed it (the same trace, and as many supersteps when the plan lists them). Nodes
 * that verify their own preconditions still do, so a path the input cannot take fails in the node
 * that notices.
 *
 * A threaded replay (`{ threadId }`) that pauses (an in-node interrupt, `interruptBefore` or
 * `interruptAfter`) on the way has not finished its path: it is refused with `REPLAY_PAUSED`, naming
 * where it paused. The pause is saved on the thread, so the test can answer it and continue there.
 *
 * @throws CoverageError `REPLAY_DIVERGED` when the run's trace differs from the path's, `REPLAY_PAUSED`
 * when a threaded run paused on the path; otherwise the engine's own errors.
 * @example
 * ```ts
 * for (const path of coveragePlan(graph).paths) {
 *   const { trace } = await replayPath(graph, path, initialReportState(), { run: runOnXState });
 * }
 * ```
 */
export async function replayPath<S extends object>(
  graph: CompiledGraph<S>,
  path: {
    readonly trace: readonly string[];
    readonly routes: readonly Pick<RouteTaken, "from" | "key">[];
    readonly choices?: readonly RouteChoice[];
    readonly supersteps?: readonly (readonly string[])[];
  },
  input: S,
  options: ReplayOptions<S> = {},
): Promise<RunResult<S>> {
  const { run = (g, i, o) => g.invoke(i, o), ...runOptions } = options;
  // A path may be longer than the default limit; the limit is a guard, not part of the path.
  const limits: RunOptions = { ...runOptions, maxSteps: runOptions.maxSteps ?? Math.max(DEFAULT_MAX_STEPS, path.trace.length) };
  const result = await run(
    scriptedGraph(graph, path.choices === undefined ? { routes: path.routes } : { choices: path.choices }),
    input,
    limits,
  );
  const followed = result.trace.length <= path.trace.length && result.trace.every((node, i) => node === path.trace[i]);
  if (followed && isPaused(result)) throw new CoverageError("REPLAY_PAUSED", pausedMessage(result, path.trace));
  const sameTrace = followed && result.trace.length === path.trace.length;
  if (!sameTrace || (path.supersteps !== undefined && result.supersteps !== path.supersteps.length)) {
    throw new CoverageError(
      "REPLAY_DIVERGED",
      (sameTrace
        ? `replayPath: the run took ${result.supersteps} superstep(s) instead of ${path.supersteps?.length ?? 0}. `
        : `replayPath: the run went ${result.trace.join(" → ")} instead of ${path.trace.join(" → ")}. `) +
        "The path and the graph disagree: plan the path from this graph.",
    );
  }
  return result;
}

function isPaused<S>(
  result: RunResult<S>,
): result is ThreadRunResult<S> & { readonly status: "interrupted"; readonly interrupt: Interrupt } {
  return "status" in result && result.status === "interrupted";
}

/** Where a replay paused, and the two ways on: answer on the thread, or a scenario that does not pause there. */
function pausedMessage(result: ThreadRunResult<unknown> & { readonly interrupt: Interrupt }, trace: readonly string[]): string {
  const { interrupt, threadId } = result;
  const calls = interrupt.interrupts ?? [];
  const where =
    interrupt.when === "during"
      ? calls
          .map((call) => `in "${call.node}" at ${call.name === undefined ? "an interrupt() call" : `the interrupt "${call.name}"`}`)
          .join(" and ")
      : `${interrupt.when} ${interrupt.nodes.map((node) => `"${node}"`).join(", ")} (compiled with interrupt${interrupt.when === "before" ? "Before" : "After"})`;
  const answer =
    interrupt.when === "during"
      ? `graph.invoke(${calls[0]?.name === undefined ? "new Command({ resume: answer })" : `${calls[0].name}.resume(answer)`}, { threadId: "${threadId}" })`
      : `graph.invoke(null, { threadId: "${threadId}" })`;
  return (
    `replayPath: the run paused ${where}${result.trace.length > 0 ? ` after ${result.trace.join(" → ")}` : ""}, ` +
    `so it did not finish the path ${trace.join(" → ")}. The pause is saved on thread "${threadId}": answer it and continue there ` +
    `(e.g. ${answer}, with the same checkpointer), or replay a scenario that does not reach the interrupt.`
  );
}
