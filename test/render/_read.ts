/**
 * Reads the diagrams back: the boxes, their decoded labels, and the transitions the arrows draw (a
 * join's way in and way out make one transition per joined node). Tests compare that to the spec.
 */
import { END, START, type GraphSpec } from "../../src/index.js";

export interface DrawnNode {
  readonly label: string;
  readonly kind: "start" | "end" | "join" | "node";
}

export interface DrawnLink {
  readonly from: string;
  readonly to: string;
  readonly arrow: string;
  readonly label?: string;
}

export interface Drawing {
  readonly nodes: Map<string, DrawnNode>;
  readonly links: DrawnLink[];
}

const decodeMermaid = (text: string): string => text.replace(/#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));

/** Parses the node and link lines of a `toMermaid` flowchart; throws on any other line. */
export function readMermaid(text: string): Drawing {
  const nodes = new Map<string, DrawnNode>();
  const links: DrawnLink[] = [];
  const [header, ...lines] = text.trimEnd().split("\n");
  if (!/^flowchart (TD|LR)$/.test(header ?? "")) throw new Error(`not a flowchart: ${header}`);
  for (const line of lines) {
    const node = /^ {2}([A-Za-z_][A-Za-z0-9_]*)(\[|\(\(\(|\(\()"([^"]*)"(\]|\)\)\)|\)\))$/.exec(line);
    const link = /^ {2}([A-Za-z_][A-Za-z0-9_]*) (-->|==>|-\.->)(?:\|"([^"]*)"\|)? ([A-Za-z_][A-Za-z0-9_]*)$/.exec(line);
    if (node) {
      const label = decodeMermaid(node[3] as string);
      const kind = node[2] === "[" ? "node" : node[2] === "(((" ? "end" : label === "START" ? "start" : "join";
      nodes.set(node[1] as string, { label, kind });
    } else if (link) {
      const label = link[3] === undefined ? {} : { label: decodeMermaid(link[3]) };
      links.push({ from: link[1] as string, to: link[4] as string, arrow: link[2] as string, ...label });
    } else if (!/^ {2}(%% .*|linkStyle [\d,]+ .*)$/.test(line)) throw new Error(`unexpected line: ${JSON.stringify(line)}`);
  }
  return { nodes, links };
}

const dotString = String.raw`"((?:[^"\\]|\\.)*)"`;
const decodeDot = (text: string): string =>
  text.replace(/\\(.)|&amp;/g, (match, char: string | undefined) => (match === "&amp;" ? "&" : char === "n" ? "\n" : (char as string)));

function dotAttributes(text: string | undefined): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const match of (text ?? "").matchAll(new RegExp(`([a-z]+)=${dotString}`, "g")))
    attributes.set(match[1] as string, decodeDot(match[2] as string));
  return attributes;
}

/** Parses the node and edge statements of a `toDot` graph; throws on any other line. */
export function readDot(text: string): Drawing {
  const nodes = new Map<string, DrawnNode>();
  const links: DrawnLink[] = [];
  const lines = text.trimEnd().split("\n");
  if (lines[0] !== "digraph {" || lines.at(-1) !== "}") throw new Error("not a digraph");
  for (const line of lines.slice(1, -1)) {
    const link = /^ {2}([A-Za-z_][A-Za-z0-9_]*) -> ([A-Za-z_][A-Za-z0-9_]*)(?: \[(.*)\])?;$/.exec(line);
    // `node [...]` sets the defaults; no box has that id (it is a keyword).
    const node = line.startsWith("  node [") ? null : /^ {2}([A-Za-z_][A-Za-z0-9_]*) \[(.*)\];$/.exec(line);
    if (link) {
      const attributes = dotAttributes(link[3]);
      const label = attributes.get("label");
      links.push({
        from: link[1] as string,
        to: link[2] as string,
        arrow: attributes.get("style") ?? "solid",
        ...(label === undefined ? {} : { label }),
      });
    } else if (node) {
      const attributes = dotAttributes(node[2]);
      const shape = attributes.get("shape");
      const kind =
        shape === "circle" ? "start" : shape === "doublecircle" ? "end" : attributes.get("fillcolor") === "black" ? "join" : "node";
      nodes.set(node[1] as string, { label: attributes.get("label") ?? "", kind });
    } else if (!/^ {2}(rankdir=(TB|LR);|node \[.*\];|\/\/ .*)$/.test(line)) throw new Error(`unexpected line: ${JSON.stringify(line)}`);
  }
  return { nodes, links };
}

const isJunction = (drawing: Drawing, id: string): boolean => drawing.nodes.get(id)?.kind === "join";

/**
 * The transitions a drawing shows, as `from [key] → to` with node names (START and END as `__start__`
 * and `__end__`), one entry per arrow; the arrows into a join are read through its junction.
 */
export function drawnTransitions(drawing: Drawing, nameOf: (id: string) => string = defaultName(drawing)): string[] {
  const out: string[] = [];
  for (const link of drawing.links) {
    if (isJunction(drawing, link.from)) continue;
    const targets = isJunction(drawing, link.to) ? drawing.links.filter((l) => l.from === link.to).map((l) => l.to) : [link.to];
    if (targets.length !== 1) throw new Error(`junction ${link.to} has ${targets.length} ways out`);
    out.push(transitionText(nameOf(link.from), link.label, nameOf(targets[0] as string)));
  }
  return out;
}

function defaultName(drawing: Drawing): (id: string) => string {
  return (id) => {
    const node = drawing.nodes.get(id);
    if (node === undefined) throw new Error(`no box for ${id}`);
    return node.kind === "end" ? END : node.kind === "start" ? START : node.label;
  };
}

/** `a → b` or `a [key] → b`. */
export function transitionText(from: string, key: string | undefined, to: string): string {
  return `${from}${key === undefined ? "" : ` [${key}]`} → ${to}`;
}

/**
 * What the drawing must show for the spec: every fixed edge, fan-out branch, joined node and route
 * key, once each. Keys of routes that may fan out are shown as the destination (END as "END").
 */
export function declaredTransitions(spec: GraphSpec): string[] {
  const out = spec.edges.map(({ from, to }) => transitionText(from, undefined, to));
  for (const fanOut of spec.fanOuts ?? []) for (const to of fanOut.to) out.push(transitionText(fanOut.from, undefined, to));
  for (const join of spec.joins ?? []) for (const from of join.from) out.push(transitionText(from, undefined, join.to));
  for (const route of spec.routes) {
    for (const [key, to] of Object.entries(route.paths)) {
      out.push(transitionText(route.from, route.sends === true && key === END ? "END" : key, to));
    }
  }
  return out;
}
