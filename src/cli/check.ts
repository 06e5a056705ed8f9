/** `tsg check`: validates a graph (an example, or a user's module) and lists its problems. */
import { stateJsonSchemaOf, superstepBound, unboundedCycles, validateTopology, type GraphProblem } from "../index.js";
import { defineCommand } from "./command.js";
import { GRAPH_ARGUMENT, loadGraph } from "./graph-source.js";
import type { CliIO } from "./io.js";
import { LOAD_TIMEOUT_FLAG, loadersOf } from "./module-loader.js";

/** `tsg check`, for the command table. */
export const checkCommand = defineCommand({
  name: "check",
  summary: "validate a graph (an example, or a module's export) and list its problems",
  description:
    "Validates a graph as compile() does: declared names, START and END, exits, reachability, route keys.\n" +
    "A module whose top level calls compile() and throws is reported the same way. A valid graph's cycles\n" +
    "that cross no loop bound ({ bound: { max, exit } }) are listed too: only recursionLimit stops them.\n" +
    "When every cycle is bounded, it prints the most supersteps a run can take (the default recursionLimit when above 25).",
  positional: { name: "GRAPH", description: GRAPH_ARGUMENT },
  flags: {
    json: { type: "boolean", description: "print { graph, valid, problems, stateSchema, unboundedCycles, superstepBound } as JSON" },
    "load-timeout": LOAD_TIMEOUT_FLAG,
  },
  exitCodes: "0 valid, 1 problems listed, 2 bad arguments (or a module that does not load).",
  async run({ flags, positional }, io) {
    const source = await loadGraph(positional, loadersOf(flags["load-timeout"]));
    const problems: readonly GraphProblem[] = source.problems ?? validateTopology(source.spec);
    const cycles = problems.length === 0 && source.spec !== undefined ? unboundedCycles(source.spec).map((cycle) => cycle.nodes) : [];
    // The most supersteps a run can take when every cycle is bounded: the default recursionLimit when above 25.
    const supersteps = problems.length === 0 && source.spec !== undefined ? (superstepBound(source.spec) ?? null) : null;
    if (flags.json === true) {
      // stateSchema: the state's JSON Schema when the graph was declared with a schema that offers one, else null.
      const graph = source.spec === undefined ? undefined : source.graph;
      const stateSchema = graph === undefined ? null : (stateJsonSchemaOf(graph) ?? null);
      const report = {
        graph: source.label,
        valid: problems.length === 0,
        problems,
        stateSchema,
        unboundedCycles: cycles,
        superstepBound: supersteps,
      };
      io.stdout.write(JSON.stringify(report, null, 2) + "\n");
    } else if (problems.length === 0) {
      const listed = cycles.map(
        (nodes) => `\n  - unbounded cycle (only recursionLimit stops it): ${nodes.map((n) => `"${n}"`).join(", ")}`,
      );
      const bound = supersteps === null ? "" : `, at most ${supersteps} superstep${supersteps === 1 ? "" : "s"} a run`;
      io.stdout.write(`${source.label}: valid (${source.spec?.nodes.length ?? 0} nodes${bound})${listed.join("")}\n`);
    } else {
      const lines = problems.map((problem) => `  - [${problem.code}] ${problem.message}`);
      io.stdout.write(`${source.label}: ${problems.length} problem${problems.length === 1 ? "" : "s"}\n${lines.join("\n")}\n`);
    }
    return problems.length === 0 ? 0 : 1;
  },
});

/**
 * Runs `tsg check` with the arguments after `check` and resolves with the exit code: 0 valid,
 * 1 problems listed, 2 bad arguments.
 *
 * @example
 * ```ts
 * await runCheckCommand(["./dist/graph.js#triage"], { stdout: process.stdout, stderr: process.stderr });
 * // ./dist/graph.js#triage: 1 problem
 * //   - [UNREACHABLE_NODE] …
 * ```
 */
export function runCheckCommand(argv: readonly string[], io: CliIO): Promise<number> {
  return checkCommand.run(argv, io);
}
