/**
 * The drawing both formats share, read from the spec alone: the boxes (START, nodes, join junctions,
 * END) and one link per declared transition, plus one link out of each junction.
 */
import { InvalidOptionError } from "../errors.js";
import { END, START, transitionPairs, type GraphSpec } from "../spec.js";
import { IdAllocator } from "./_escape.js";

/** A graph to draw: a compiled graph (anything with a `spec`), or the spec itself. */
export type DiagramSource = GraphSpec | { readonly spec: GraphSpec };

/**
 * One transition that recorded runs took. A `key` names a route key; without one, the fixed edge
 * `from → to` (or, when `from` routes, each of its keys that leads to `to`). A coverage report's
 * transitions and a run's `routes` fit as they are.
 */
export interface ExercisedTransition {
  readonly from: string;
  readonly to: string;
  readonly key?: string;
  /** A node's `Command` goto took it (a run's route with `goto: true`): the pair `from → to` of its ends. */
  readonly goto?: boolean;
}

/**
 * What recorded runs exercised: a coverage report (`coverageReport(graph, runs)`, anything with an
 * `exercised` list), or the list of transitions itself.
 */
export type DiagramCoverage = { readonly exercised: readonly ExercisedTransition[] } | readonly ExercisedTransition[];

export interface DiagramNode {
  readonly id: string;
  readonly label: string;
  readonly kind: "start" | "end" | "node" | "join";
}

/**
 * `edge` a fixed edge, `route` a route key, `send` a key of a route that may fan out (a list of
 * destinations or `Send`s), `fanOut` a branch of a fan-out, `joinIn`/`joinOut` into and out of a join,
 * `goto` a destination of a node's `Command` (its `ends`; drawn dashed, as LangGraph draws them).
 */
export type DiagramLinkKind = "edge" | "route" | "send" | "fanOut" | "joinIn" | "joinOut" | "goto";

export interface DiagramLink {
  readonly from: string;
  readonly to: string;
  readonly kind: DiagramLinkKind;
  /** The route key, for `route` and `send` links. */
  readonly label?: string;
  /** `true` when a coverage overlay was given and no recorded run took this link. */
  readonly missed: boolean;
}

export interface Diagram {
  readonly nodes: readonly DiagramNode[];
  readonly links: readonly DiagramLink[];
  /** When a coverage overlay was given: how many declared transitions the runs took, of how many. */
  readonly coverage?: { readonly covered: number; readonly total: number };
}

interface PendingLink {
  readonly source: string;
  readonly from: string;
  readonly to: string;
  readonly kind: DiagramLinkKind;
  readonly key?: string;
  /** For `joinIn`: the join's index in `spec.joins`. */
  readonly join?: number;
}

/** Lays out the spec as boxes and links; `api` names the caller in error messages. */
export function diagramOf(source: DiagramSource, coverage: DiagramCoverage | undefined, api: string): Diagram {
  const spec = "spec" in source ? source.spec : source;
  const ids = new IdAllocator();
  const idOf = new Map<string, string>([
    [START, ids.take("__start__")],
    [END, ids.take("__end__")],
  ]);
  for (const node of spec.nodes) idOf.set(node, ids.forName(node));
  const joinIds = (spec.joins ?? []).map((_, index) => ids.take(`join_${index}`));

  const exercised = coverage === undefined ? undefined : exercisedOf(spec, coverage, api);
  const pending = pendingLinks(spec);
  const order = new Map([START, ...spec.nodes].map((name, index) => [name, index]));
  // Grouped by source, in declaration order: how a reader follows the graph.
  pending.sort((a, b) => (order.get(a.source) ?? order.size) - (order.get(b.source) ?? order.size));

  const extraNodes: DiagramNode[] = [];
  const id = (name: string): string => {
    let known = idOf.get(name);
    if (known === undefined) {
      // A spec built from data may name a node it does not list: draw it rather than hide the edge.
      known = ids.forName(name);
      idOf.set(name, known);
      extraNodes.push({ id: known, label: name, kind: "node" });
    }
    return known;
  };

  const links: DiagramLink[] = [];
  const joinsLeft = (spec.joins ?? []).map((join) => join.from.length);
  const joinMissed = (spec.joins ?? []).map(() => false);
  for (const link of pending) {
    const missed = exercised !== undefined && !exercised(link);
    if (link.join !== undefined) {
      const index = link.join;
      links.push({ from: id(link.from), to: joinIds[index] as string, kind: "joinIn", missed });
      joinMissed[index] ||= missed;
      joinsLeft[index] = (joinsLeft[index] ?? 1) - 1;
      // The way out of a join follows its last way in; it is missed when any way in was.
      if (joinsLeft[index] === 0)
        links.push({ from: joinIds[index] as string, to: id(link.to), kind: "joinOut", missed: joinMissed[index] ?? false });
      continue;
    }
    const label = link.key === undefined ? {} : { label: link.kind === "send" ? displayName(link.key) : link.key };
    links.push({ from: id(link.from), to: id(link.to), kind: link.kind, ...label, missed });
  }

  const nodes: DiagramNode[] = [
    { id: idOf.get(START) as string, label: "START", kind: "start" },
    ...spec.nodes.map((name): DiagramNode => ({ id: idOf.get(name) as string, label: name, kind: "node" })),
    ...extraNodes,
    ...joinIds.map((joinId): DiagramNode => ({ id: joinId, label: "join", kind: "join" })),
    { id: idOf.get(END) as string, label: "END", kind: "end" },
  ];
  if (exercised === undefined) return { nodes, links };
  const transitions = links.filter((link) => link.kind !== "joinOut");
  return { nodes, links, coverage: { covered: transitions.filter((link) => !link.missed).length, total: transitions.length } };
}

/** One pending link per declared transition. */
function pendingLinks(spec: GraphSpec): PendingLink[] {
  const links: PendingLink[] = [];
  for (const { from, to } of spec.edges) links.push({ source: from, from, to, kind: "edge" });
  for (const fanOut of spec.fanOuts ?? [])
    for (const to of fanOut.to) links.push({ source: fanOut.from, from: fanOut.from, to, kind: "fanOut" });
  (spec.joins ?? []).forEach((join, index) => {
    for (const from of join.from) links.push({ source: from, from, to: join.to, kind: "joinIn", join: index });
  });
  for (const route of spec.routes) {
    for (const [key, to] of Object.entries(route.paths)) {
      links.push({ source: route.from, from: route.from, to, kind: route.sends === true ? "send" : "route", key });
    }
  }
  for (const ends of spec.ends ?? []) for (const to of ends.to) links.push({ source: ends.from, from: ends.from, to, kind: "goto" });
  return links;
}

/** A predicate telling whether the runs took a link, after checking that the coverage fits the graph. */
function exercisedOf(spec: GraphSpec, coverage: DiagramCoverage, api: string): (link: PendingLink) => boolean {
  const list: readonly ExercisedTransition[] = "exercised" in coverage ? coverage.exercised : coverage;
  const pairs = new Set(transitionPairs(spec).map(({ from, to }) => pairKey(from, to)));
  const routeTo = new Map(
    spec.routes.flatMap((route) => Object.entries(route.paths).map(([key, to]) => [pairKey(route.from, key), to] as const)),
  );
  const gotoPairs = new Set((spec.ends ?? []).flatMap((ends) => ends.to.map((to) => pairKey(ends.from, to))));
  const takenPairs = new Set<string>();
  const takenKeys = new Set<string>();
  const takenGotos = new Set<string>();
  for (const transition of list) {
    if (transition.goto === true) {
      if (!gotoPairs.has(pairKey(transition.from, transition.to))) {
        throw new InvalidOptionError(
          `${api}: the coverage names the goto ${displayName(transition.from)} → ${displayName(transition.to)}, which the ends of ${displayName(transition.from)} do not declare; pass the coverage of this graph's runs.`,
        );
      }
      takenGotos.add(pairKey(transition.from, transition.to));
      continue;
    }
    const known =
      transition.key === undefined
        ? pairs.has(pairKey(transition.from, transition.to))
        : routeTo.get(pairKey(transition.from, transition.key)) === transition.to;
    if (!known) {
      const shown = `${displayName(transition.from)}${transition.key === undefined ? "" : ` [${transition.key}]`} → ${displayName(transition.to)}`;
      throw new InvalidOptionError(
        `${api}: the coverage names the transition ${shown}, which this graph does not declare; pass the coverage of this graph's runs.`,
      );
    }
    if (transition.key === undefined) takenPairs.add(pairKey(transition.from, transition.to));
    else takenKeys.add(pairKey(transition.from, transition.key));
  }
  return (link) => {
    if (link.kind === "goto") return takenGotos.has(pairKey(link.from, link.to));
    if (link.kind === "route" || link.kind === "send")
      return takenKeys.has(pairKey(link.from, link.key ?? "")) || takenPairs.has(pairKey(link.from, link.to));
    return takenPairs.has(pairKey(link.from, link.to));
  };
}

function pairKey(from: string, to: string): string {
  return `${from}\u0000${to}`;
}

/** START and END as a reader knows them. */
export function displayName(name: string): string {
  return name === START ? "START" : name === END ? "END" : name;
}
