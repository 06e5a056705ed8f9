/** `toDot`: a graph in Graphviz DOT, drawn from its spec. */
import { diagramOf, type DiagramCoverage, type DiagramLink, type DiagramNode, type DiagramSource } from "./_diagram.js";
import { dotText } from "./_escape.js";

/** Options of {@link toDot}. */
export interface DotOptions {
  /**
   * What recorded runs exercised: a coverage report, or a list of the transitions they took. The
   * transitions they never took are drawn dashed and red, with `class="missed"` for SVG styling.
   */
  readonly coverage?: DiagramCoverage;
  /** `TB` top to bottom (default) or `LR` left to right. */
  readonly rankdir?: "TB" | "LR";
}

/**
 * Draws a compiled graph (or its spec) in Graphviz DOT, the same drawing as {@link toMermaid}: START a
 * circle, END a double circle, route keys as edge labels, fan-out branches bold, each join a bar the
 * joined nodes lead into. Ids are generated; every name is a quoted label.
 *
 * @throws InvalidOptionError when `coverage` names a transition the graph does not declare.
 * @example
 * ```ts
 * import { END, START, StateGraph } from "typed-state-graph";
 * import { toDot } from "typed-state-graph/render";
 *
 * const graph = new StateGraph<{ n: number }>()
 *   .addNode("inc", (s) => ({ n: s.n + 1 }))
 *   .addEdge(START, "inc")
 *   .addEdge("inc", END)
 *   .compile();
 * toDot(graph); // "digraph {\n  rankdir=TB;\n …\n  __start__ -> inc;\n  inc -> __end__;\n}\n"
 * // render it: npx tsg diagram report --format dot | dot -Tsvg > report.svg
 * ```
 */
export function toDot(graph: DiagramSource, options: DotOptions = {}): string {
  const diagram = diagramOf(graph, options.coverage, "toDot");
  const lines = ["digraph {", `  rankdir=${options.rankdir ?? "TB"};`, `  node [shape=box, style=rounded];`];
  if (diagram.coverage !== undefined) {
    lines.push(`  // coverage: ${diagram.coverage.covered}/${diagram.coverage.total} transitions taken; dashed red: never taken`);
  }
  for (const node of diagram.nodes) lines.push(`  ${node.id} [${attributes(nodeAttributes(node))}];`);
  for (const link of diagram.links) {
    const attrs = linkAttributes(link);
    lines.push(`  ${link.from} -> ${link.to}${attrs.length === 0 ? "" : ` [${attributes(attrs)}]`};`);
  }
  lines.push("}");
  return lines.join("\n") + "\n";
}

type Attribute = readonly [name: string, value: string];

function attributes(list: readonly Attribute[]): string {
  return list.map(([name, value]) => `${name}="${dotText(value)}"`).join(", ");
}

function nodeAttributes(node: DiagramNode): Attribute[] {
  switch (node.kind) {
    case "start":
      return [
        ["label", node.label],
        ["shape", "circle"],
      ];
    case "end":
      return [
        ["label", node.label],
        ["shape", "doublecircle"],
      ];
    case "join":
      // A UML join bar: the node it leads to runs once every node leading in has run.
      return [
        ["label", ""],
        ["shape", "box"],
        ["style", "filled"],
        ["fillcolor", "black"],
        ["width", "0.8"],
        ["height", "0.05"],
        ["fixedsize", "true"],
      ];
    case "node":
      return [["label", node.label]];
  }
}

function linkAttributes(link: DiagramLink): Attribute[] {
  const attrs: Attribute[] = [];
  if (link.label !== undefined) attrs.push(["label", link.label]);
  if (link.missed) attrs.push(["style", "dashed"], ["color", "#d62728"], ["fontcolor", "#d62728"], ["class", "missed"]);
  else if (link.kind === "fanOut" || link.kind === "send") attrs.push(["style", "bold"]);
  else if (link.kind === "goto") attrs.push(["style", "dashed"]);
  return attrs;
}
