/** `tsg paths`: prints the coverage plan of a graph (an example, or a user's module), one START→END path per line. */
import { CoverageError, coveragePlan, formatPath, type CoveragePlan, type CoveragePlanner } from "../coverage/index.js";
import { defineCommand } from "./command.js";
import { specOrRefusal } from "./graph-commands.js";
import { EXAMPLE_GRAPHS, GRAPH_ARGUMENT } from "./graph-source.js";
import { UsageError, type CliIO } from "./io.js";
import { LOAD_TIMEOUT_FLAG, loadersOf } from "./module-loader.js";

/** The example graphs `tsg paths` plans by name (it plans a user's module too). */
export const PATH_GRAPHS = EXAMPLE_GRAPHS;

/** The planners `--via` accepts. */
export const PATH_PLANNERS: readonly CoveragePlanner[] = ["linear", "xstate", "@xstate/graph"];

/** Coverage failures that are about the input (the graph, or a missing peer), not a bug: exit 2. */
const REFUSALS: ReadonlySet<string> = new Set([
  "XSTATE_UNAVAILABLE",
  "XSTATE_PLAN_UNSUPPORTED",
  "PLAN_TOO_LARGE",
  "UNCOVERABLE",
  "XSTATE_PLAN_FAILED",
]);

/** `tsg paths`, for the command table. */
export const pathsCommand = defineCommand({
  name: "paths",
  summary: "print the START→END paths that cover every edge and route key of a graph",
  description:
    "Prints START→END paths that together take every fixed edge and every route key of the graph,\n" +
    "each route key in brackets after the node whose router returned it, then how many transitions\n" +
    "the paths cover. A graph that fans out or joins is planned as runs, superstep by superstep.",
  positional: { name: "GRAPH", description: GRAPH_ARGUMENT },
  flags: {
    json: { type: "boolean", description: "print the plan as JSON" },
    via: {
      type: "choice",
      choices: PATH_PLANNERS,
      description: "who plans: the built-in linear cover, xstate/graph, or @xstate/graph",
      default: "linear",
    },
    "load-timeout": LOAD_TIMEOUT_FLAG,
  },
  exitCodes: "0 every transition covered, 1 some not covered, 2 bad arguments (or a graph that cannot be planned).",
  async run({ flags, positional }, io) {
    const { via } = flags;
    const spec = await specOrRefusal(positional, loadersOf(flags["load-timeout"]));
    let plan: CoveragePlan;
    try {
      plan = await coveragePlan({ spec }, { via });
    } catch (error) {
      if (error instanceof CoverageError && REFUSALS.has(error.code)) throw new UsageError(error.message);
      throw error;
    }
    io.stdout.write(flags.json === true ? JSON.stringify(planAsJson(positional, plan), null, 2) + "\n" : planAsText(plan));
    return plan.covered === plan.total ? 0 : 1;
  },
});

/**
 * Runs `tsg paths` with the arguments after `paths` and resolves with the exit code.
 *
 * @example
 * ```ts
 * await runPathsCommand(["report"], { stdout: process.stdout, stderr: process.stderr });
 * // START → collect → write_draft → check_draft [accept] → publish → END
 * // …
 * // covers 9/9 transitions
 * ```
 */
export function runPathsCommand(argv: readonly string[], io: CliIO): Promise<number> {
  return pathsCommand.run(argv, io);
}

function planAsText(plan: CoveragePlan): string {
  return [...plan.paths.map(formatPath), `covers ${plan.covered}/${plan.total} transitions`].map((line) => line + "\n").join("");
}

function planAsJson(graph: string, plan: CoveragePlan) {
  return {
    graph,
    via: plan.via,
    paths: plan.paths.map((path) => ({ name: path.name, trace: path.trace, routes: path.routes, line: formatPath(path) })),
    covered: plan.covered,
    total: plan.total,
    transitions: plan.transitions.map((t) => t.label),
  };
}
