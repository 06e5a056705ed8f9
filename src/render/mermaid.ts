/** `toMermaid`: a graph as a Mermaid flowchart, drawn from its spec. */
import { diagramOf, type DiagramCoverage, type DiagramLink, type DiagramNode, type DiagramSource } from "./_diagram.js";
import { mermaidText } from "./_escape.js";

export type { DiagramSource, DiagramCoverage, ExercisedTransition } from "./_diagram.js";

/** Options of {@link toMermaid}. */
export interface MermaidOptions {
  /**
   * What recorded runs exercised: a coverage report, or a list of the transitions they took. The
   * transitions they never took are drawn dashed and red.
   */
  readonly coverage?: DiagramCoverage;
  /** `TD` top-down (default) or `LR` left-to-right. */
  readonly direction?: "TD" | "LR";
}

/** The colour of a transition the recorded runs never took. */
const MISSED_STYLE = "stroke:#d62728,stroke-width:2px,color:#d62728";

/**
 * Draws a compiled graph (or its spec) as a Mermaid `flowchart`: START a circle, END a double circle,
 * fixed edges plain arrows, route keys labelled arrows, fan-outs thick arrows (their branches run
 * together), routes that may fan out (a list of destinations, or `Send`) thick labelled arrows, a
 * node's `Command` ends dashed arrows (as LangGraph draws them), and each join a junction the joined
 * nodes lead into. Ids are generated; every name is a quoted label.
 *
 * @throws InvalidOptionError when `coverage` names a transition the graph does not declare.
 * @example
 * ```ts
 * import { END, START, StateGraph } from "typed-state-graph";
 * import { toMermaid } from "typed-state-graph/render";
 *
 * const graph = new StateGraph<{ n: number }>()
 *   .addNode("inc", (s) => ({ n: s.n + 1 }))
 *   .addEdge(START, "inc")
 *   .addConditionalEdges("inc", (s) => (s.n < 3 ? "again" : "done"), { again: "inc", done: END })
 *   .compile();
 * toMermaid(graph);
 * // flowchart TD
 * //   __start__(("START"))
 * //   inc["inc"]
 * //   __end__((("END")))
 * //   __start__ --> inc
 * //   inc -->|"again"| inc
 * //   inc -->|"done"| __end__
 * ```
 */
export function toMermaid(graph: DiagramSource, options: MermaidOptions = {}): string {
  const diagram = diagramOf(graph, options.coverage, "toMermaid");
  const lines = [`flowchart ${options.direction ?? "TD"}`];
  if (diagram.coverage !== undefined) {
    lines.push(`  %% coverage: ${diagram.coverage.covered}/${diagram.coverage.total} transitions taken; dashed red: never taken`);
  }
  for (const node of diagram.nodes) lines.push(`  ${node.id}${shape(node)}`);
  for (const link of diagram.links) lines.push(`  ${link.from} ${arrow(link)} ${link.to}`);
  const missed = diagram.links.flatMap((link, index) => (link.missed ? [index] : []));
  if (missed.length > 0) lines.push(`  linkStyle ${missed.join(",")} ${MISSED_STYLE}`);
  return lines.join("\n") + "\n";
}

function shape(node: DiagramNode): string {
  const text = `"${mermaidText(node.label)}"`;
  switch (node.kind) {
    case "start":
      return `((${text}))`;
    case "end":
      return `(((${text})))`;
    case "join":
      return `((${text}))`;
    case "node":
      return `[${text}]`;
  }
}

function arrow(link: DiagramLink): string {
  const label = link.label === undefined ? "" : `|"${mermaidText(link.label)}"|`;
  // Mermaid has no thick dashed arrow: a missed link is dashed whatever its kind, and its colour says why.
  if (link.missed || link.kind === "goto") return `-.->${label}`;
  const parallel = link.kind === "fanOut" || link.kind === "send";
  return `${parallel ? "==>" : "-->"}${label}`;
}
