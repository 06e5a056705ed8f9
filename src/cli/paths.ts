/** `tsg paths`: prints the coverage plan of an example graph, one START→END path per line. */
import { parseArgs } from "node:util";
import { coveragePlan, formatPath, type CoveragePlan, type CoveragePlanner } from "../coverage/index.js";
import { buildAgentGraph, ScriptedModel } from "../examples/agent/index.js";
import { buildReportGraph } from "../examples/report/index.js";
import { UsageError, type CliIO, type Command } from "./io.js";
import { parseChoiceFlag, prepareCommand } from "./options.js";

/** The graphs `tsg paths` can plan. */
export const PATH_GRAPHS = ["report", "agent"] as const;

/** A graph `tsg paths` can plan. */
export type PathGraph = (typeof PATH_GRAPHS)[number];

const PLANNERS: readonly CoveragePlanner[] = ["linear", "xstate"];

const USAGE = `Usage: tsg paths ${PATH_GRAPHS.join("|")} [options]

Prints START→END paths that together take every fixed edge and every route key of the graph,
each route key in brackets after the node whose router returned it, then how many transitions
the paths cover.

Options:
  --json                 print the plan as JSON
  --via linear|xstate    who plans: the built-in linear cover (default) or xstate/graph
  -h, --help             show this help

Exit codes: 0 every transition covered, 1 some not covered, 2 bad arguments.`;

const FLAGS = {
  json: { type: "boolean" },
  via: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

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
export async function runPathsCommand(argv: readonly string[], io: CliIO): Promise<number> {
  const request = prepareCommand("paths", USAGE, io, () => prepare(argv));
  if (typeof request === "number") return request;
  const plan = await coveragePlan(graphOf(request.graph), { via: request.via });
  io.stdout.write(request.json ? JSON.stringify(planAsJson(request.graph, plan), null, 2) + "\n" : planAsText(plan));
  return plan.covered === plan.total ? 0 : 1;
}

/** `tsg paths`, for the command table. */
export const pathsCommand: Command = {
  summary: "print the START→END paths that cover every edge and route key of an example graph",
  run: runPathsCommand,
};

function prepare(argv: readonly string[]): { graph: PathGraph; via: CoveragePlanner; json: boolean } | "help" {
  const { values, positionals } = parseFlags(argv);
  if (values.help === true) return "help";
  if (positionals.length !== 1) {
    throw new UsageError(`name one graph, ${PATH_GRAPHS.join(" or ")}; got ${positionals.length === 0 ? "none" : positionals.join(" ")}.`);
  }
  const graph = parseChoiceFlag("the graph", positionals[0], PATH_GRAPHS) as PathGraph;
  return { graph, via: parseChoiceFlag("--via", values.via, PLANNERS) ?? "linear", json: values.json === true };
}

function parseFlags(argv: readonly string[]) {
  try {
    return parseArgs({ args: [...argv], options: FLAGS, strict: true, allowPositionals: true });
  } catch (error) {
    // parseArgs names the offending flag or argument; keep its words, drop its stack.
    const isParseError = error instanceof Error && String((error as { code?: unknown }).code).startsWith("ERR_PARSE_ARGS");
    if (isParseError) throw new UsageError(error.message);
    throw error;
  }
}

function graphOf(name: PathGraph) {
  // Only the shape is planned: the options and the model behind the nodes do not change it.
  return name === "report" ? buildReportGraph() : buildAgentGraph(new ScriptedModel({ city: "Tokyo", task: "convert", language: "en" }));
}

function planAsText(plan: CoveragePlan): string {
  return [...plan.paths.map(formatPath), `covers ${plan.covered}/${plan.total} transitions`].map((line) => line + "\n").join("");
}

function planAsJson(graph: PathGraph, plan: CoveragePlan) {
  return {
    graph,
    via: plan.via,
    paths: plan.paths.map((path) => ({ name: path.name, trace: path.trace, routes: path.routes, line: formatPath(path) })),
    covered: plan.covered,
    total: plan.total,
    transitions: plan.transitions.map((t) => t.label),
  };
}
