/** `tsg check`: validates a graph (an example, or a user's module) and lists its problems. */
import { relative, resolve } from "node:path";
import { stateJsonSchemaOf, superstepBound, unboundedCycles, validateTopology, type GraphProblem } from "../index.js";
import { loadOldVersion, parseNodeMap, resumabilityAgainst, resumabilityText } from "./against.js";
import { defineCommand } from "./command.js";
import { GRAPH_ARGUMENT, loadGraph } from "./graph-source.js";
import type { CliIO } from "./io.js";
import { LOAD_TIMEOUT_FLAG, loadersOf } from "./module-loader.js";
import { refuseExisting, writeOutput } from "./output-file.js";
import { specModuleText } from "./spec-module.js";

/** `tsg check`, for the command table. */
export const checkCommand = defineCommand({
  name: "check",
  summary: "validate a graph (an example, or a module's export) and list its problems",
  description:
    "Validates a graph as compile() does: declared names, START and END, exits, reachability, route keys.\n" +
    "A module whose top level calls compile() and throws is reported the same way. A valid graph's cycles\n" +
    "that cross no loop bound ({ bound: { max, exit } }) are listed too: only recursionLimit stops them.\n" +
    "When every cycle is bounded, it prints the most supersteps a run can take (the default recursionLimit when above 25).\n" +
    "--emit-spec FILE.ts writes a valid graph's spec as a TypeScript module (as const), for a newer version\n" +
    "to import the old node names as literal types.",
  positional: { name: "GRAPH", description: GRAPH_ARGUMENT },
  flags: {
    json: { type: "boolean", description: "print { graph, valid, problems, stateSchema, unboundedCycles, superstepBound, spec } as JSON" },
    "emit-spec": { type: "string", valueHint: "FILE.ts", description: "write the graph's spec as a TypeScript module (as const)" },
    force: { type: "boolean", description: "with --emit-spec: overwrite FILE.ts if it exists" },
    against: {
      type: "string",
      valueHint: "OLD",
      description: "list the resume points of OLD (an --emit-spec file, a --json output, a graph) this graph cannot take",
    },
    nodes: {
      type: "string",
      multiple: true,
      valueHint: "OLD=NEW,…",
      description: "with --against: old node names mapped to new ones (renamed, split, removed)",
    },
    "state-migrated": {
      type: "boolean",
      description: "with --against: the new version migrates the state, so changed fields are not listed",
    },
    "load-timeout": LOAD_TIMEOUT_FLAG,
  },
  exitCodes:
    "0 valid (and FILE.ts written, every resume point of OLD taken); 1 problems listed (nothing written); 2 bad arguments, a module that does not load, or a FILE.ts that exists (without --force) or cannot be written; 3 with --against, resume points of OLD this graph cannot take (or changed state fields).",
  async run({ flags, positional }, io) {
    const emitTo = flags["emit-spec"] === undefined ? undefined : resolve(flags["emit-spec"]);
    // Checked before the module loads: a refused file costs nothing, and the module's code never runs for it.
    if (emitTo !== undefined) refuseExisting(emitTo, flags.force, "--emit-spec FILE");
    const loaders = loadersOf(flags["load-timeout"]);
    const nodes = parseNodeMap(flags.nodes);
    const old = flags.against === undefined ? undefined : await loadOldVersion(flags.against, loaders);
    const source = await loadGraph(positional, loaders);
    const problems: readonly GraphProblem[] = source.problems ?? validateTopology(source.spec);
    const cycles = problems.length === 0 && source.spec !== undefined ? unboundedCycles(source.spec).map((cycle) => cycle.nodes) : [];
    // The most supersteps a run can take when every cycle is bounded: the default recursionLimit when above 25.
    const supersteps = problems.length === 0 && source.spec !== undefined ? (superstepBound(source.spec) ?? null) : null;
    const graph = source.spec === undefined ? undefined : source.graph;
    const stateSchema = graph === undefined ? null : (stateJsonSchemaOf(graph) ?? null);
    const resumability =
      old === undefined || source.spec === undefined || problems.length > 0
        ? undefined
        : resumabilityAgainst(old, source.graph ?? { spec: source.spec, stateSchema }, nodes, flags["state-migrated"]);
    if (flags.json === true) {
      // stateSchema: the state's JSON Schema when the graph was declared with a schema that offers one, else null.
      // spec: what `tsg check NEW --against THIS_OUTPUT` compares a newer version with.
      const report = {
        graph: source.label,
        valid: problems.length === 0,
        problems,
        stateSchema,
        unboundedCycles: cycles,
        superstepBound: supersteps,
        spec: source.spec ?? null,
        ...(resumability === undefined ? {} : { resumability: { against: old?.label, ...resumability } }),
      };
      io.stdout.write(JSON.stringify(report, null, 2) + "\n");
    } else if (problems.length === 0) {
      const listed = cycles.map(
        (nodes) => `\n  - unbounded cycle (only recursionLimit stops it): ${nodes.map((n) => `"${n}"`).join(", ")}`,
      );
      const bound = supersteps === null ? "" : `, at most ${supersteps} superstep${supersteps === 1 ? "" : "s"} a run`;
      io.stdout.write(`${source.label}: valid (${source.spec?.nodes.length ?? 0} nodes${bound})${listed.join("")}\n`);
      if (old !== undefined && resumability !== undefined) io.stdout.write(resumabilityText(old.label, resumability));
    } else {
      const lines = problems.map((problem) => `  - [${problem.code}] ${problem.message}`);
      io.stdout.write(`${source.label}: ${problems.length} problem${problems.length === 1 ? "" : "s"}\n${lines.join("\n")}\n`);
    }
    if (problems.length > 0) return 1;
    if (emitTo !== undefined && source.spec !== undefined) {
      const command = `tsg check ${positional} --emit-spec ${flags["emit-spec"]}`;
      writeOutput(emitTo, specModuleText({ spec: source.spec, stateSchema, command }), "--emit-spec");
      // With --json, stdout holds the JSON alone.
      if (flags.json !== true) io.stdout.write(`${relative(process.cwd(), emitTo) || emitTo}: written (the spec, as const)\n`);
    }
    return resumability !== undefined && resumability.problems.length > 0 ? 3 : 0;
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
