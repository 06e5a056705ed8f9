import { quote, quoteList } from "../_describe.js";
import type { GraphProblem, GraphProblemCode } from "../errors.js";
import type { GraphSpec } from "../spec.js";
import { END, START } from "../spec.js";
import { boundProblems } from "./bounds.js";
import { checkSpecSchema } from "./spec-schema.js";

type Report = (code: GraphProblemCode, node: string, message: string) => void;

/**
 * Checks a spec's topology and returns every problem found (an empty array when the graph is sound).
 * This is the run-time mirror of the builder's compile-time checks; it also guards JavaScript callers
 * and graphs built from data: a value that is not a spec at all (`null`, `{}`) gives `INVALID_SPEC`
 * problems naming each wrong path. Linear in the size of the spec.
 *
 * @example
 * ```ts
 * validateTopology({ nodes: ["a"], edges: [{ from: "a", to: END }], routes: [], reducers: [] });
 * // → [{ code: "MISSING_START_EDGE", node: "__start__", message: "…" }]
 * ```
 */
export function validateTopology(spec: GraphSpec): GraphProblem[] {
  const shape = checkSpecSchema(spec);
  // A compiled graph's spec always lists its reducers (a spec to bind may omit them: bindSpec fills them in).
  if (shape.length === 0 && spec.reducers === undefined) {
    shape.push({
      code: "INVALID_SPEC",
      node: "spec.reducers",
      message: `spec.reducers must be a list of { field, reducer }; got nothing. Pass [] for a graph without reducers.`,
    });
  }
  if (shape.length > 0) return shape;
  const problems: GraphProblem[] = [];
  const report: Report = (code, node, message) => problems.push({ code, node, message });
  const declared = checkNodeNames(spec.nodes, report);

  const rulesBySource = new Map<string, number>();
  const successors = new Map<string, string[]>();
  const countRule = (from: string) => rulesBySource.set(from, (rulesBySource.get(from) ?? 0) + 1);
  const addEdge = (from: string, to: string) => {
    const list = successors.get(from);
    if (list) list.push(to);
    else successors.set(from, [to]);
  };
  // `where` is a function: the text of a call is built only for the calls that have a problem.
  const checkSource = (from: string, where: () => string): boolean => {
    if (from === END) {
      report(
        "INVALID_ENDPOINT",
        from,
        `${where()}: END ("${END}") cannot be a source; a run stops there. Start the edge from a declared node.`,
      );
      return false;
    }
    if (from !== START && !declared.has(from)) {
      report(
        "UNKNOWN_NODE",
        from,
        `${where()}: source ${quote(from)} is not a declared node. Declare it with addNode(${quote(from)}, fn) or fix the name.`,
      );
      return false;
    }
    return true;
  };
  const checkDestination = (to: string, where: () => string): boolean => {
    if (to === START) {
      report("INVALID_ENDPOINT", to, `${where()}: START ("${START}") cannot be a destination. Point the edge at a declared node or END.`);
      return false;
    }
    if (to !== END && !declared.has(to)) {
      report(
        "UNKNOWN_NODE",
        to,
        `${where()}: destination ${quote(to)} is not a declared node. Declare it with addNode(${quote(to)}, fn) or fix the name.`,
      );
      return false;
    }
    return true;
  };

  for (const edge of spec.edges) {
    countRule(edge.from);
    const where = () => `addEdge(${quote(edge.from)}, ${quote(edge.to)})`;
    const sourceOk = checkSource(edge.from, where);
    if (checkDestination(edge.to, where) && sourceOk) addEdge(edge.from, edge.to);
  }
  for (const fanOut of spec.fanOuts ?? []) {
    countRule(fanOut.from);
    const where = () => `addEdge(${quote(fanOut.from)}, [${quoteList(fanOut.to)}])`;
    checkList(fanOut.to, fanOut.from, where, "destination", report);
    const sourceOk = checkSource(fanOut.from, where);
    for (const to of fanOut.to) if (checkDestination(to, where) && sourceOk) addEdge(fanOut.from, to);
  }
  for (const join of spec.joins ?? []) {
    const where = () => `addEdge([${quoteList(join.from)}], ${quote(join.to)})`;
    checkList(join.from, join.to, where, "source", report);
    const destinationOk = checkDestination(join.to, where);
    for (const from of new Set(join.from)) {
      countRule(from);
      if (from === START) {
        report(
          "INVALID_ENDPOINT",
          from,
          `${where()}: START cannot be part of a join; a join waits for nodes. Start with addEdge(START, […]) instead.`,
        );
      } else if (checkSource(from, where) && destinationOk) {
        addEdge(from, join.to);
      }
    }
  }
  for (const route of spec.routes) {
    countRule(route.from);
    const where = () => `addConditionalEdges(${quote(route.from)}, …)`;
    const sourceOk = checkSource(route.from, where);
    const entries = Object.entries(route.paths);
    if (entries.length === 0) {
      report("EMPTY_PATH_MAP", route.from, `${where()}: the path map is empty. Map each key the router returns to a node or END.`);
    }
    for (const [key, to] of entries) {
      if (key.trim() === "") {
        report(
          "EMPTY_ROUTE_KEY",
          route.from,
          `${where()}: a route key is empty or whitespace. Give every route a readable key such as "accept".`,
        );
      }
      if (checkDestination(to, where) && sourceOk) addEdge(route.from, to);
    }
  }

  // A node's ends are not its one rule: it may have an edge or a route too (the Command adds to it), or
  // none, when it always leaves with a goto.
  const commanding = new Set<string>();
  for (const ends of spec.ends ?? []) {
    const where = () => `addNode(${quote(ends.from)}, fn, { ends: [${quoteList(ends.to)}] })`;
    if (commanding.has(ends.from)) {
      report("DUPLICATE_RULE", ends.from, `${where()}: ${quote(ends.from)} declares its ends twice. Declare them once, in one list.`);
    }
    commanding.add(ends.from);
    checkList(ends.to, ends.from, where, "destination", report);
    if (ends.from === START) {
      report(
        "INVALID_ENDPOINT",
        ends.from,
        `${where()}: START has no node function, so it cannot return a Command. Declare ends on a node.`,
      );
      continue;
    }
    const sourceOk = checkSource(ends.from, where);
    for (const to of ends.to) if (checkDestination(to, where) && sourceOk) addEdge(ends.from, to);
  }

  for (const [from, to] of boundProblems(spec, declared, report)) addEdge(from, to);

  for (const [source, count] of rulesBySource) {
    if (count > 1) {
      report(
        "DUPLICATE_RULE",
        source,
        `${quote(source)} has ${count} outgoing rules; each source has exactly one: one addEdge or one addConditionalEdges. ` +
          `Remove the extra edge, or route with addConditionalEdges.`,
      );
    }
  }
  if (!rulesBySource.has(START)) {
    report("MISSING_START_EDGE", START, `There is no edge from START. Add addEdge(START, "<first node>").`);
  }
  for (const node of declared) {
    if (!rulesBySource.has(node) && !commanding.has(node)) {
      report(
        "NO_OUTGOING_RULE",
        node,
        `Node ${quote(node)} has no outgoing edge. Add addEdge(${quote(node)}, <next node or END>) or addConditionalEdges(${quote(node)}, router, paths).`,
      );
    }
  }

  const reachable = reachableFrom(START, successors);
  for (const node of declared) {
    if (!reachable.has(node)) {
      report("UNREACHABLE_NODE", node, `Node ${quote(node)} is not reachable from START. Add an edge that leads to it, or remove it.`);
    }
  }
  const predecessors = reverse(successors);
  const reachesEnd = reachableFrom(END, predecessors);
  for (const node of declared) {
    if ((rulesBySource.has(node) || commanding.has(node)) && !reachesEnd.has(node)) {
      report(
        "NO_PATH_TO_END",
        node,
        `Node ${quote(node)} has no path to END, so a run that enters it can never finish (a closed cycle). Add an exit toward END.`,
      );
    }
  }
  checkReducers(spec, report);
  return problems;
}

/** One reducer per field (a second would silently win), and each for a declared field when `fields` is given. */
function checkReducers(spec: GraphSpec, report: Report): void {
  const reducers = spec.reducers;
  const seen = new Set<string>();
  for (const { field } of reducers) {
    if (seen.has(field)) {
      report("DUPLICATE_REDUCER", field, `${quote(field)} has more than one reducer; one would silently win. Keep one reducer per field.`);
    }
    seen.add(field);
  }
  if (!spec.fields) return;
  const fields = new Set(spec.fields);
  for (const field of seen) {
    if (!fields.has(field)) {
      report(
        "UNKNOWN_REDUCER_FIELD",
        field,
        `A reducer is declared for ${quote(field)}, which is not in \`fields\`. Add it to \`fields\` or remove the reducer.`,
      );
    }
  }
}

function checkList(names: readonly string[], node: string, where: () => string, role: "source" | "destination", report: Report): void {
  if (names.length === 0) {
    report("EMPTY_FAN_OUT", node, `${where()}: the list of ${role}s is empty. Name at least one node, or use a plain addEdge.`);
  }
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) repeated.add(name);
    seen.add(name);
  }
  if (repeated.size > 0) {
    const listed = quoteList([...repeated]);
    report("DUPLICATE_TARGET", node, `${where()}: ${listed} ${repeated.size === 1 ? "is" : "are"} listed twice. List each ${role} once.`);
  }
}

function checkNodeNames(nodes: readonly string[], report: Report): Set<string> {
  const declared = new Set<string>();
  for (const node of nodes) {
    if (typeof node !== "string" || node.trim() === "") {
      report("INVALID_NODE_NAME", String(node), `Node name ${quote(node)} is empty or not a string. Name every node with visible text.`);
    } else if (node === START || node === END) {
      report("INVALID_NODE_NAME", node, `"${node}" is reserved (${node === START ? "START" : "END"}). Choose another node name.`);
    } else if (declared.has(node)) {
      report("DUPLICATE_NODE", node, `Node ${quote(node)} is declared more than once. Give each node a unique name.`);
    } else {
      declared.add(node);
    }
  }
  return declared;
}

function reachableFrom(origin: string, adjacency: ReadonlyMap<string, readonly string[]>): Set<string> {
  const seen = new Set<string>([origin]);
  const stack = [origin];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    for (const next of adjacency.get(node) ?? []) {
      if (!seen.has(next)) {
        seen.add(next);
        stack.push(next);
      }
    }
  }
  return seen;
}

function reverse(adjacency: ReadonlyMap<string, readonly string[]>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [from, targets] of adjacency) {
    for (const to of targets) {
      const list = out.get(to);
      if (list) list.push(from);
      else out.set(to, [from]);
    }
  }
  return out;
}
