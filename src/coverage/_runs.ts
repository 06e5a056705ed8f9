/**
 * Coverage plans for graphs that fan out or join: planned runs, superstep by superstep.
 *
 * A run of such a graph is not a path of nodes but a sequence of supersteps, and what happens next
 * depends on more than the last node: on every active node, and on which sources already arrived at
 * each join. So the planner walks an abstract model of the scheduler, whose vertices are
 * *configurations* (the tasks of the next superstep, and each join's arrivals) and whose edges are
 * *moves* (one superstep, with a choice of key(s) for each router that runs). It reads only the spec:
 * no node or router runs. Then it plans exactly as the sequential planner does, on that graph: one
 * breadth-first search from the start, one backwards from the configurations where a run ends (no
 * task, and no join waiting: a run that stops with a join waiting fails with JOIN_INCOMPLETE), and for
 * each transition no earlier run took, the shortest way to a move that takes it and the shortest way
 * on to the end. The work is linear in the size of the configuration graph, which is
 * bounded ({@link MAX_MOVES}).
 *
 * What the model assumes: a router that is asked chooses one of its keys, or (when it has several)
 * all of them at once, or (with a list path map) none; a Send counts as one task of its node (as if
 * the router sent one item). What follows a superstep is decided by the run kernel's own `advance`
 * (joins, END dropped, de-duplication, declaration order), so the planner cannot drift from the engine.
 */
import { advance, type Arrival, type Successors, type Transition } from "../engine/_kernel.js";
import { END, START, type GraphSpec } from "../spec.js";
import { CoverageError } from "./errors.js";
import { runFrom, type CoveragePath, type RouteChoice } from "./path.js";
import { gotoRoute, routeKey, type GraphTransition } from "./transitions.js";

/** The most moves the planner explores before it gives up with `PLAN_TOO_LARGE`. */
export const MAX_MOVES = 200_000;

/** Where an abstract run stands between supersteps. */
interface Configuration {
  readonly id: number;
  /** The next superstep's nodes, de-duplicated, in declaration order; empty once the run is over. */
  readonly tasks: readonly string[];
  /** Per join (declaration order): the sources that arrived since it last fired, in declaration order. */
  readonly arrivals: readonly (readonly string[])[];
}

/** One superstep (or, from the initial configuration, START's activation). */
interface Move {
  readonly from: number;
  readonly to: number;
  /** The superstep's nodes (none for START's activation). */
  readonly nodes: readonly string[];
  readonly choices: readonly RouteChoice[];
  readonly transitions: readonly GraphTransition[];
}

/** What a source does after it ran: a fixed set of successors, a join arrival, or a router's choice. */
type Rule =
  | { readonly kind: "fixed"; readonly to: readonly string[]; readonly transitions: readonly GraphTransition[] }
  | { readonly kind: "join"; readonly join: number; readonly transition: GraphTransition }
  | { readonly kind: "route"; readonly options: readonly Option[] };

/** One thing a router may return: one key, or all of its keys. */
interface Option {
  readonly keys: readonly string[];
  readonly to: readonly string[];
  readonly transitions: readonly GraphTransition[];
}

/** The plan's runs: together they take every transition that any run can take, or this throws `UNCOVERABLE`. */
export function planRuns(spec: GraphSpec, transitions: readonly GraphTransition[]): CoveragePath[] {
  const model = explore(spec, transitions);
  const { moves, out, configurations } = model;

  // Shortest ways: into each configuration from the start, and from each configuration to an end.
  const arrivedBy = new Map<number, Move | null>([[0, null]]);
  const order = [0];
  for (let i = 0; i < order.length; i++) {
    for (const move of out.get(order[i] as number) ?? []) {
      if (arrivedBy.has(move.to)) continue;
      arrivedBy.set(move.to, move);
      order.push(move.to);
    }
  }
  const incoming = new Map<number, Move[]>();
  for (const move of moves) (incoming.get(move.to) ?? incoming.set(move.to, []).get(move.to))?.push(move);
  // A run ends when no task is left; with a join still waiting it fails instead (JOIN_INCOMPLETE).
  const ends = configurations.filter((c) => c.id !== 0 && c.tasks.length === 0 && c.arrivals.every((a) => a.length === 0)).map((c) => c.id);
  const leftBy = new Map<number, Move | null>(ends.map((id) => [id, null]));
  const queue = [...ends];
  for (let i = 0; i < queue.length; i++) {
    for (const move of incoming.get(queue[i] as number) ?? []) {
      if (leftBy.has(move.from)) continue;
      leftBy.set(move.from, move);
      queue.push(move.from);
    }
  }

  const taken = new Set<GraphTransition>();
  const runs: CoveragePath[] = [];
  for (const id of order) {
    for (const move of out.get(id) ?? []) {
      if (!leftBy.has(move.to) || move.transitions.every((t) => taken.has(t))) continue;
      const way = [...wayTo(id, arrivedBy), move, ...wayFrom(move.to, leftBy)];
      for (const step of way) for (const t of step.transitions) taken.add(t);
      runs.push(runOf(spec, way));
    }
  }

  const missing = transitions.filter((t) => !taken.has(t));
  if (missing.length > 0) {
    throw new CoverageError(
      "UNCOVERABLE",
      `coveragePlan: ${missing.length} transition(s) lie on no run that ends: ${missing.map((t) => t.label).join(", ")}. ` +
        "A join whose sources never all run leaves its run failing (JOIN_INCOMPLETE), and a run that cannot end takes nothing to the end. " +
        "Pass a compiled graph (compile() validates reachability), or fix the spec.",
      { transitions: missing },
    );
  }
  return runs;
}

function wayTo(id: number, arrivedBy: ReadonlyMap<number, Move | null>): Move[] {
  const way: Move[] = [];
  for (let move = arrivedBy.get(id); move; move = arrivedBy.get(move.from)) way.push(move);
  return way.reverse();
}

function wayFrom(id: number, leftBy: ReadonlyMap<number, Move | null>): Move[] {
  const way: Move[] = [];
  for (let move = leftBy.get(id); move; move = leftBy.get(move.to)) way.push(move);
  return way;
}

function runOf(spec: GraphSpec, moves: readonly Move[]): CoveragePath {
  const paths = new Map(spec.routes.map((route) => [route.from, route.paths]));
  // Per superstep, as the kernel's advance records them: the routers' keys, then the Commands' gotos.
  const routes = moves.flatMap((move) => [
    ...move.choices.flatMap(({ from, keys }) => keys.map((key) => ({ from, key, to: paths.get(from)?.[key] ?? END }))),
    ...move.transitions.flatMap((t) => (t.kind === "goto" ? [gotoRoute(t)] : [])),
  ]);
  return runFrom(
    moves.filter((move) => move.nodes.length > 0).map((move) => move.nodes),
    moves.flatMap((move) => move.choices),
    moves.flatMap((move) => move.transitions),
    routes,
  );
}

/** The configuration graph reachable from the start (configuration 0, before START's activation). */
function explore(spec: GraphSpec, transitions: readonly GraphTransition[]) {
  const rules = rulesOf(spec, transitions);
  const gotoOptions = gotoOptionsOf(spec, transitions);
  const position = new Map(spec.nodes.map((node, index) => [node, index]));
  const joinCount = spec.joins?.length ?? 0;
  const configurations: Configuration[] = [{ id: 0, tasks: [], arrivals: Array.from({ length: joinCount }, () => []) }];
  const byKey = new Map<string, number>();
  const out = new Map<number, Move[]>();
  const moves: Move[] = [];

  const configurationOf = (tasks: readonly string[], arrivals: readonly (readonly string[])[]): number => {
    const key = JSON.stringify([tasks, arrivals]);
    const known = byKey.get(key);
    if (known !== undefined) return known;
    const id = configurations.length;
    configurations.push({ id, tasks, arrivals });
    byKey.set(key, id);
    return id;
  };

  // The scheduling rules (join arrivals, END dropped, de-duplication, declaration order) are the run
  // kernel's own `advance`, applied to tasks named by the spec instead of produced by running nodes.
  const table = schedulingTable(spec, position);
  for (let i = 0; i < configurations.length; i++) {
    const at = configurations[i] as Configuration;
    const sources = at.id === 0 ? [START] : at.tasks;
    if (sources.length === 0) continue;
    // Each router, and each node's Command goto (what it may add beside its rule), is a choice.
    const routed: { index: number; source: string; options: readonly Option[]; goto: boolean }[] = [];
    sources.forEach((source, index) => {
      const rule = rules.get(source);
      if (rule?.kind === "route") routed.push({ index, source, options: rule.options, goto: false });
      const gotos = gotoOptions.get(source);
      if (gotos !== undefined) routed.push({ index, source, options: gotos, goto: true });
    });

    const count = routed.reduce((product, r) => product * r.options.length, 1);
    if (moves.length + count > MAX_MOVES) {
      throw new CoverageError(
        "PLAN_TOO_LARGE",
        `coveragePlan: this graph's runs have more than ${MAX_MOVES} distinct supersteps to explore (its routers, fan-outs and joins ` +
          "combine into too many configurations). Measure what recorded runs took with coverageReport(graph, runs) instead.",
      );
    }
    for (let combination = 0; combination < count; combination++) {
      // The combination's option for each routed source, the first source varying slowest.
      const picked = new Map<number, Option>();
      const pickedGoto = new Map<number, Option>();
      let rest = combination;
      for (let r = routed.length - 1; r >= 0; r--) {
        const { index, options, goto } = routed[r] as (typeof routed)[number];
        (goto ? pickedGoto : picked).set(index, options[rest % options.length] as Option);
        rest = Math.floor(rest / options.length);
      }
      const taken: GraphTransition[] = [];
      const choices: RouteChoice[] = [];
      const arrivals: Arrival[] = sources.map((source, index): Arrival => {
        const rule = rules.get(source);
        const option = picked.get(index);
        const goto = pickedGoto.get(index);
        const withGoto = (arrival: Arrival): Arrival => {
          if (goto === undefined || goto.to.length === 0) return arrival;
          taken.push(...goto.transitions);
          return { ...arrival, goto: goto.to.map((node) => ({ node, sent: false })) };
        };
        if (option !== undefined) {
          taken.push(...option.transitions);
          choices.push({ from: source, keys: option.keys });
          return withGoto({ source, successors: plainSuccessors(option.to) });
        }
        if (rule?.kind === "join") {
          taken.push(rule.transition);
          return withGoto({ source, successors: undefined });
        }
        if (rule?.kind === "fixed") taken.push(...rule.transitions);
        return withGoto({ source, successors: plainSuccessors(rule?.kind === "fixed" ? rule.to : []) });
      });
      const next = advance(table, at.arrivals, arrivals);
      // A configuration is a set of arrivals per join: their order does not change what the run does next.
      const nextArrivals = next.joins.map((arrived) => [...arrived].sort((a, b) => (position.get(a) ?? 0) - (position.get(b) ?? 0)));
      const move: Move = {
        from: at.id,
        to: configurationOf(
          next.tasks.map((task) => task.node),
          nextArrivals,
        ),
        nodes: at.id === 0 ? [] : sources,
        choices,
        transitions: taken,
      };
      moves.push(move);
      (out.get(at.id) ?? out.set(at.id, []).get(at.id))?.push(move);
    }
  }
  return { configurations, moves, out };
}

/** What the kernel's `advance` reads of a graph, built from the spec: declaration order and the joins. */
function schedulingTable(spec: GraphSpec, order: ReadonlyMap<string, number>): Parameters<typeof advance>[0] {
  const joins = (spec.joins ?? []).map((join) => ({ sources: new Set(join.from), to: join.to }));
  const transitions = new Map<string, Transition>();
  (spec.joins ?? []).forEach((join, index) => {
    for (const from of join.from) transitions.set(from, { kind: "join", join: index });
  });
  return { order, joins, transitions };
}

/** A source's successors as plain tasks, the way a fixed rule or a chosen key leads to them. */
function plainSuccessors(to: readonly string[]): Successors {
  return { tasks: to.map((node) => ({ node, sent: false })), routes: [], list: false };
}

/**
 * What each node's Command goto may add to the next superstep: each of its ends alone, or nothing (a
 * Command with an update only, or a plain update; for a node whose only rule is its ends, its branch ends).
 */
function gotoOptionsOf(spec: GraphSpec, transitions: readonly GraphTransition[]): Map<string, Option[]> {
  const byPair = new Map(transitions.flatMap((t) => (t.kind === "goto" ? [[routeKey(t.from, t.to), t] as const] : [])));
  const options = new Map<string, Option[]>();
  for (const { from, to } of spec.ends ?? []) {
    const each = to.map((end): Option => {
      const t = byPair.get(routeKey(from, end));
      return { keys: [], to: [end], transitions: t === undefined ? [] : [t] };
    });
    options.set(from, [...each, { keys: [], to: [], transitions: [] }]);
  }
  return options;
}

/** Each source's rule, with the transitions it takes. */
function rulesOf(spec: GraphSpec, transitions: readonly GraphTransition[]): Map<string, Rule> {
  const edges = new Map<string, GraphTransition[]>();
  const routes = new Map<string, GraphTransition>();
  for (const t of transitions) {
    if (t.kind === "route") routes.set(routeKey(t.from, t.key), t);
    else if (t.kind === "edge") (edges.get(t.from) ?? edges.set(t.from, []).get(t.from))?.push(t);
  }
  const rules = new Map<string, Rule>();
  for (const { from, to } of spec.edges) rules.set(from, { kind: "fixed", to: [to], transitions: edges.get(from) ?? [] });
  for (const fanOut of spec.fanOuts ?? [])
    rules.set(fanOut.from, { kind: "fixed", to: [...fanOut.to], transitions: edges.get(fanOut.from) ?? [] });
  (spec.joins ?? []).forEach((join, index) => {
    for (const from of join.from) {
      const transition = (edges.get(from) ?? []).find((t) => t.kind === "edge" && t.rule === "join" && t.to === join.to);
      if (transition !== undefined) rules.set(from, { kind: "join", join: index, transition });
    }
  });
  for (const route of spec.routes) {
    const keys = Object.keys(route.paths);
    const option = (chosen: readonly string[]): Option => ({
      keys: chosen,
      to: chosen.map((key) => route.paths[key] as string),
      transitions: chosen.flatMap((key) => {
        const t = routes.get(routeKey(route.from, key));
        return t === undefined ? [] : [t];
      }),
    });
    // Each key alone first, so that a plan prefers runs a single-key router can take; then all keys
    // at once; and, for a list path map, none (the router returns an empty list, which can end a run).
    const options = keys.map((key) => option([key]));
    if (keys.length > 1) options.push(option(keys));
    if (route.sends === true) options.push(option([]));
    rules.set(route.from, { kind: "route", options });
  }
  return rules;
}
