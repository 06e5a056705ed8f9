import type { GraphSpec } from "../spec.js";
import { invalidArgument } from "../errors.js";
import { START } from "../spec.js";
import { sourcesReachingEnd } from "./_internals/reachability.js";
import { PropertyViolation } from "./errors.js";

/**
 * Throws unless START and every node have a path to END, following every fixed edge and every route
 * key, so that no run can be trapped in a closed cycle or a dead end. Takes a compiled graph or its
 * spec. The check is computed here, independently of the validation `compile()` runs.
 *
 * @throws PropertyViolation `END_UNREACHABLE` naming every source with no path to END.
 * @example
 * ```ts
 * import { assertEveryNodeReachesEnd } from "typed-state-graph/testing";
 *
 * test("every node of the report graph can finish", () => assertEveryNodeReachesEnd(reportGraph));
 * ```
 */
export function assertEveryNodeReachesEnd(graph: { readonly spec: GraphSpec } | GraphSpec): void {
  const spec = "spec" in graph ? graph.spec : graph;
  if (spec === null || typeof spec !== "object" || !Array.isArray(spec.nodes)) {
    throw invalidArgument("assertEveryNodeReachesEnd expects a compiled graph or its spec ({ nodes, edges, routes, reducers }).");
  }
  const reaching = sourcesReachingEnd(spec);
  const stuck = [START, ...spec.nodes].filter((source) => !reaching.has(source));
  if (stuck.length === 0) return;
  const names = stuck.map((name) => (name === START ? "START" : JSON.stringify(name))).join(", ");
  throw new PropertyViolation(
    "END_UNREACHABLE",
    `assertEveryNodeReachesEnd: ${stuck.length} of ${spec.nodes.length + 1} sources (START and the nodes) have no path to END: ${names}. ` +
      `Give each an edge or a route key that leads toward END.`,
  );
}
