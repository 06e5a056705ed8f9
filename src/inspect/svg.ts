/**
 * The inspector's diagram: an SVG drawn on the server from the graph's spec, the same boxes and links
 * as the Mermaid export (START, END, route keys, fan-outs, joins), so the page needs no layout library
 * and no network. Each node and link carries `data-` attributes the page uses to light up a run and
 * overlay coverage.
 */
import { diagramOf, type DiagramLink, type DiagramNode } from "../render/_diagram.js";
import { END, START, type GraphSpec } from "../spec.js";
import { layoutDiagram, type PlacedLink, type PlacedNode } from "./svg-layout.js";

/** The names the page addresses, by the diagram's generated ids. */
function nameOf(node: DiagramNode): string {
  if (node.kind === "start") return START;
  if (node.kind === "end") return END;
  return node.kind === "join" ? node.id : node.label;
}

/**
 * Draws a spec as an SVG document: `data-node` on each node (START is `__start__`, END `__end__`),
 * `data-link` (the link's index in the Mermaid export's order), `data-from`, `data-to` and `data-key`
 * on each link.
 *
 * @example
 * ```ts
 * const svg = graphSvg(buildReportGraph().spec);
 * svg.startsWith("<svg"); // true
 * ```
 */
export function graphSvg(spec: GraphSpec): string {
  const diagram = diagramOf(spec, undefined, "graphSvg");
  const names = new Map(diagram.nodes.map((node) => [node.id, nameOf(node)]));
  const layout = layoutDiagram(diagram);
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" class="tsg-graph" viewBox="0 0 ${layout.width} ${layout.height}" width="${layout.width}" height="${layout.height}" role="img" aria-label="graph diagram">`,
    "<defs>",
    '<marker id="tsg-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="9" markerHeight="9" markerUnits="userSpaceOnUse" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" class="arrowhead"/></marker>',
    "</defs>",
    ...layout.links.map((placed) => linkSvg(placed, names)),
    ...layout.nodes.map((placed) => nodeSvg(placed, names.get(placed.node.id) ?? placed.node.id)),
    "</svg>",
  ];
  return parts.join("\n");
}

function linkSvg({ link, index, path, labelAt }: PlacedLink, names: ReadonlyMap<string, string>): string {
  const attributes = [
    `class="link kind-${link.kind}"`,
    `data-link="${index}"`,
    `data-from="${xml(names.get(link.from) ?? link.from)}"`,
    `data-to="${xml(names.get(link.to) ?? link.to)}"`,
    ...(link.label === undefined ? [] : [`data-key="${xml(link.label)}"`]),
  ].join(" ");
  const label =
    link.label === undefined
      ? ""
      : `<text class="link-label" x="${labelAt.x}" y="${labelAt.y}" text-anchor="middle">${xml(link.label)}</text>`;
  return `<g ${attributes}><path d="${path}" marker-end="url(#tsg-arrow)"/>${label}</g>`;
}

function nodeSvg({ node, x, y, width, height }: PlacedNode, name: string): string {
  const open = `<g class="node kind-${node.kind}" data-node="${xml(name)}">`;
  const cx = x + width / 2;
  const cy = y + height / 2;
  const text = `<text x="${cx}" y="${cy}" dy="0.35em" text-anchor="middle">${xml(node.label)}</text>`;
  switch (node.kind) {
    case "start":
      return `${open}<circle cx="${cx}" cy="${cy}" r="${height / 2}"/>${text}</g>`;
    case "end":
      return `${open}<circle cx="${cx}" cy="${cy}" r="${height / 2}"/><circle cx="${cx}" cy="${cy}" r="${height / 2 - 4}"/>${text}</g>`;
    case "join":
      return `${open}<circle cx="${cx}" cy="${cy}" r="${height / 2}"/><title>join</title></g>`;
    case "node":
      return `${open}<rect x="${x}" y="${y}" width="${width}" height="${height}" rx="6"/>${text}</g>`;
  }
}

/** Text and attribute values in SVG: a node name may hold `<`, `&` or quotes. */
export function xml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;").replaceAll("'", "&#39;");
}

export type { DiagramLink };
