/**
 * A small layered layout for the inspector's SVG: each node sits on the row of its longest path from
 * START (loops ignored), END below every node, rows centred. Links that go down are curves; links that
 * go back up (loops) bend out to the right, each a little further out, so they do not overlap.
 */
import type { Diagram, DiagramLink, DiagramNode } from "../render/_diagram.js";

export interface PlacedNode {
  readonly node: DiagramNode;
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export interface PlacedLink {
  readonly link: DiagramLink;
  /** The link's index in the diagram (the Mermaid export's order). */
  readonly index: number;
  /** An SVG path `d`. */
  readonly path: string;
  readonly labelAt: { readonly x: number; readonly y: number };
}

export interface Layout {
  readonly width: number;
  readonly height: number;
  readonly nodes: readonly PlacedNode[];
  readonly links: readonly PlacedLink[];
}

const ROW = 90;
const GAP = 48;
const MARGIN = 24;
const BOX_HEIGHT = 36;
const CHAR_WIDTH = 8;
const LOOP_STEP = 28;

function sizeOf(node: DiagramNode): { width: number; height: number } {
  if (node.kind === "join") return { width: 16, height: 16 };
  if (node.kind === "start" || node.kind === "end") return { width: 44, height: 44 };
  return { width: Math.max(72, node.label.length * CHAR_WIDTH + 28), height: BOX_HEIGHT };
}

/** Each node's row: the longest path from START over the links that are not back edges of a DFS from START. */
function rowsOf(diagram: Diagram): Map<string, number> {
  const out = new Map<string, string[]>(diagram.nodes.map((n) => [n.id, []]));
  for (const link of diagram.links) out.get(link.from)?.push(link.to);
  const start = diagram.nodes.find((n) => n.kind === "start")?.id;
  const end = diagram.nodes.find((n) => n.kind === "end")?.id;
  const back = new Set<string>();
  const state = new Map<string, "open" | "done">();
  const visit = (id: string): void => {
    state.set(id, "open");
    for (const next of out.get(id) ?? []) {
      const seen = state.get(next);
      if (seen === "open") back.add(`${id}\u0000${next}`);
      else if (seen === undefined) visit(next);
    }
    state.set(id, "done");
  };
  if (start !== undefined) visit(start);
  // Nodes START does not reach (a spec with problems) still get a row.
  for (const node of diagram.nodes) if (!state.has(node.id)) visit(node.id);

  const row = new Map<string, number>(diagram.nodes.map((n) => [n.id, 0]));
  // Longest path on a DAG: relax in a topological order (reverse DFS finish order over forward links).
  const order: string[] = [];
  const done = new Set<string>();
  const finish = (id: string): void => {
    done.add(id);
    for (const next of out.get(id) ?? []) if (!back.has(`${id}\u0000${next}`) && !done.has(next)) finish(next);
    order.push(id);
  };
  for (const node of diagram.nodes) if (!done.has(node.id)) finish(node.id);
  for (const id of order.reverse()) {
    for (const next of out.get(id) ?? []) {
      if (back.has(`${id}\u0000${next}`)) continue;
      row.set(next, Math.max(row.get(next) ?? 0, (row.get(id) ?? 0) + 1));
    }
  }
  if (end !== undefined) {
    const deepest = Math.max(0, ...[...row].filter(([id]) => id !== end).map(([, r]) => r));
    row.set(end, Math.max(row.get(end) ?? 0, deepest + 1));
  }
  return row;
}

/**
 * Places a diagram's nodes and links.
 *
 * @example
 * ```ts
 * const { width, height, nodes } = layoutDiagram(diagramOf(spec, undefined, "graphSvg"));
 * ```
 */
export function layoutDiagram(diagram: Diagram): Layout {
  const rows = rowsOf(diagram);
  const byRow: DiagramNode[][] = [];
  for (const node of diagram.nodes) (byRow[rows.get(node.id) ?? 0] ??= []).push(node);
  const rowWidths = byRow.map((nodes = []) => nodes.reduce((sum, n) => sum + sizeOf(n).width, 0) + GAP * Math.max(0, nodes.length - 1));
  const inner = Math.max(0, ...rowWidths);
  const placed = new Map<string, PlacedNode>();
  byRow.forEach((nodes = [], r) => {
    let x = MARGIN + (inner - (rowWidths[r] ?? 0)) / 2;
    for (const node of nodes) {
      const { width, height } = sizeOf(node);
      placed.set(node.id, { node, x: Math.round(x), y: MARGIN + r * ROW + Math.round((BOX_HEIGHT + 8 - height) / 2), width, height });
      x += width + GAP;
    }
  });

  let loops = 0;
  const links = diagram.links.map((link, index): PlacedLink => {
    const from = placed.get(link.from) as PlacedNode;
    const to = placed.get(link.to) as PlacedNode;
    const goesDown = (rows.get(link.to) ?? 0) > (rows.get(link.from) ?? 0);
    if (goesDown) {
      const x1 = from.x + from.width / 2;
      const y1 = from.y + from.height;
      const x2 = to.x + to.width / 2;
      const y2 = to.y;
      const bend = (y2 - y1) / 2;
      return {
        link,
        index,
        path: `M${r(x1)},${r(y1)} C${r(x1)},${r(y1 + bend)} ${r(x2)},${r(y2 - bend)} ${r(x2)},${r(y2)}`,
        labelAt: { x: r((x1 + x2) / 2), y: r((y1 + y2) / 2 + 4) },
      };
    }
    loops += 1;
    // A loop bends out on the side its source is on, so it does not cross the row it sits in.
    const side = from.x + from.width / 2 < MARGIN + inner / 2 ? -1 : 1;
    const out = 24 + loops * LOOP_STEP;
    const edgeOf = (placedNode: PlacedNode) => (side < 0 ? placedNode.x : placedNode.x + placedNode.width);
    const self = from === to ? 8 : 0;
    const x1 = edgeOf(from);
    const y1 = from.y + from.height / 2 + self;
    const x2 = edgeOf(to);
    const y2 = to.y + to.height / 2 - self;
    const far = side < 0 ? Math.min(x1, x2) - out : Math.max(x1, x2) + out;
    return {
      link,
      index,
      path: `M${r(x1)},${r(y1)} C${r(far)},${r(y1)} ${r(far)},${r(y2)} ${r(x2)},${r(y2)}`,
      labelAt: { x: r(far + 6 * -side), y: r((y1 + y2) / 2 + 4) },
    };
  });
  // Loops on the left may reach past the margin: shift everything right by that much.
  const left = Math.min(0, ...links.map((l) => l.labelAt.x - 40));
  const right = Math.max(MARGIN + inner, ...links.map((l) => l.labelAt.x + 40));
  if (left < 0)
    return shifted({ width: r(right - left + MARGIN), height: heightOf(byRow.length), nodes: [...placed.values()], links }, -left);
  return { width: r(right + MARGIN), height: heightOf(byRow.length), nodes: [...placed.values()], links };
}

function r(value: number): number {
  return Math.round(value);
}

function heightOf(rowCount: number): number {
  return MARGIN * 2 + Math.max(1, rowCount) * ROW - (ROW - BOX_HEIGHT - 8);
}

/** The layout moved right by `dx` (every path's x coordinates included). */
function shifted(layout: Layout, dx: number): Layout {
  const d = r(dx);
  return {
    ...layout,
    nodes: layout.nodes.map((n) => ({ ...n, x: n.x + d })),
    links: layout.links.map((l) => ({
      ...l,
      path: l.path.replace(/(-?\d+),(-?\d+)/g, (_m, x: string, y: string) => `${Number(x) + d},${y}`),
      labelAt: { x: l.labelAt.x + d, y: l.labelAt.y },
    })),
  };
}
