/** `tsg diagram`: prints a graph (an example, or a user's module) as a Mermaid flowchart, Graphviz DOT, or its JSON spec. */
import type { GraphSpec } from "../index.js";
import { toDot, toMermaid } from "../render/index.js";
import { defineCommand } from "./command.js";
import { EXAMPLE_GRAPHS, GRAPH_ARGUMENT, exampleSpec, type ExampleGraph } from "./graph-source.js";
import type { CliIO } from "./io.js";
import { LOAD_TIMEOUT_FLAG, loadersOf } from "./module-loader.js";
import { specOrRefusal } from "./graph-commands.js";

export { exampleSpec };

/** The example graphs `tsg diagram` draws by name (it draws a user's module too). */
export const DIAGRAM_GRAPHS = EXAMPLE_GRAPHS;

/** An example graph of `tsg diagram`. */
export type DiagramGraph = ExampleGraph;

/** The formats `tsg diagram --format` accepts. */
export const DIAGRAM_FORMATS = ["mermaid", "dot", "json"] as const;

/** A format of `tsg diagram`. */
export type DiagramFormat = (typeof DIAGRAM_FORMATS)[number];

/** `tsg diagram`, for the command table. */
export const diagramCommand = defineCommand({
  name: "diagram",
  summary: "print a graph as a Mermaid flowchart, Graphviz DOT, or its JSON spec",
  description: "Prints a graph, drawn from its spec: START, the nodes, the fixed edges, the route keys, fan-outs and joins.",
  positional: { name: "GRAPH", description: GRAPH_ARGUMENT },
  flags: {
    format: {
      type: "choice",
      choices: DIAGRAM_FORMATS,
      description: "mermaid: a flowchart; dot: Graphviz; json: the spec",
      default: "mermaid",
    },
    "load-timeout": LOAD_TIMEOUT_FLAG,
  },
  notes: "Render DOT with Graphviz: tsg diagram report --format dot | dot -Tsvg > report.svg",
  exitCodes: "0 printed, 2 bad arguments (or a module that does not load or does not validate).",
  async run({ flags, positional }, io) {
    io.stdout.write(render(await specOrRefusal(positional, loadersOf(flags["load-timeout"])), flags.format));
    return 0;
  },
});

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
export function runDiagramCommand(argv: readonly string[], io: CliIO): Promise<number> {
  return diagramCommand.run(argv, io);
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
