/** `tsg diagram`: prints an example graph as a Mermaid flowchart, Graphviz DOT, or its JSON spec. */
import { parseArgs } from "node:util";
import { buildAgentGraph, ScriptedModel } from "../examples/agent/index.js";
import { buildReportGraph } from "../examples/report/index.js";
import { buildResearchGraph } from "../examples/research/index.js";
import type { GraphSpec } from "../index.js";
import { toDot } from "../render/dot.js";
import { toMermaid } from "../render/mermaid.js";
import { UsageError, type CliIO, type Command } from "./io.js";
import { parseChoiceFlag, prepareCommand } from "./options.js";

/** The graphs `tsg diagram` can draw. */
export const DIAGRAM_GRAPHS = ["report", "agent", "research"] as const;

/** A graph `tsg diagram` can draw. */
export type DiagramGraph = (typeof DIAGRAM_GRAPHS)[number];

/** The formats `tsg diagram --format` accepts. */
export const DIAGRAM_FORMATS = ["mermaid", "dot", "json"] as const;

/** A format of `tsg diagram`. */
export type DiagramFormat = (typeof DIAGRAM_FORMATS)[number];

const USAGE = `Usage: tsg diagram ${DIAGRAM_GRAPHS.join("|")} [options]

Prints an example graph, drawn from its spec: START, the nodes, the fixed edges, the route keys,
fan-outs and joins.

Options:
  --format ${DIAGRAM_FORMATS.join("|")}  mermaid: a flowchart (default); dot: Graphviz; json: the spec
  -h, --help                 show this help

Render DOT with Graphviz: tsg diagram report --format dot | dot -Tsvg > report.svg

Exit codes: 0 printed, 2 bad arguments.`;

const FLAGS = {
  format: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/**
 * Runs `tsg diagram` with the arguments after `diagram` and resolves with the exit code: 0 printed,
 * 2 bad arguments.
 *
 * @example
 * ```ts
 * await runDiagramCommand(["research", "--format", "dot"], { stdout: process.stdout, stderr: process.stderr });
 * // digraph {
 * //   rankdir=TB;
 * // …
 * ```
 */
export async function runDiagramCommand(argv: readonly string[], io: CliIO): Promise<number> {
  const request = prepareCommand("diagram", USAGE, io, () => prepare(argv));
  if (typeof request === "number") return request;
  io.stdout.write(render(exampleSpec(request.graph), request.format));
  return 0;
}

/** `tsg diagram`, for the command table. */
export const diagramCommand: Command = {
  summary: "print an example graph as a Mermaid flowchart, Graphviz DOT, or its JSON spec",
  run: runDiagramCommand,
};

/**
 * The spec of an example graph, as `tsg diagram` draws it.
 *
 * @example
 * ```ts
 * exampleSpec("research").joins; // [{ from: ["web", "papers", "internal"], to: "synthesize" }]
 * ```
 */
export function exampleSpec(graph: DiagramGraph): GraphSpec {
  // Only the shape is drawn: the options and the model behind the nodes do not change it.
  switch (graph) {
    case "report":
      return buildReportGraph().spec;
    case "agent":
      return buildAgentGraph(new ScriptedModel({ city: "Tokyo", task: "convert", language: "en" })).spec;
    case "research":
      return buildResearchGraph().spec;
  }
}

function render(spec: GraphSpec, format: DiagramFormat): string {
  switch (format) {
    case "mermaid":
      return toMermaid(spec);
    case "dot":
      return toDot(spec);
    case "json":
      return JSON.stringify(spec, null, 2) + "\n";
  }
}

function prepare(argv: readonly string[]): { graph: DiagramGraph; format: DiagramFormat } | "help" {
  const { values, positionals } = parseFlags(argv);
  if (values.help === true) return "help";
  if (positionals.length !== 1) {
    throw new UsageError(`name one graph, ${DIAGRAM_GRAPHS.join(", ")}; got ${positionals.length === 0 ? "none" : positionals.join(" ")}.`);
  }
  const graph = parseChoiceFlag("the graph", positionals[0], DIAGRAM_GRAPHS) as DiagramGraph;
  return { graph, format: parseChoiceFlag("--format", values.format, DIAGRAM_FORMATS) ?? "mermaid" };
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
