/**
 * Order warnings. Within a superstep, updates merge in declaration order, so the result is always
 * deterministic; but when parallel nodes write a field whose reducer is not both commutative and
 * associative, the result depends on that order. `compile()` says so, naming the field, the nodes
 * and the reducer. Which fields a node writes is only known at run time, so every such reducer
 * field is reported for every group of nodes that can run together, except the fields the graph
 * acknowledged (`orderedMerge`): for an event log, declaration order is the order wanted.
 */
import { END } from "../spec.js";
import type { GraphDefinition } from "./executable.js";
import { reducerNameOf, type ReducerMetadata } from "./reducers.js";

/** A non-fatal finding of `compile()`: an order-dependent merge, or a cycle no loop bound stops. */
export type GraphWarning = OrderWarning | UnboundedCycleWarning;

/**
 * A cycle that crosses no bounded node (`{ bound: { max } }`): only `recursionLimit` stops it. A graph
 * declared with `loops: "bounded"` gets it as an `UNBOUNDED_CYCLE` problem of `compile()` instead.
 */
export interface UnboundedCycleWarning {
  readonly code: "UNBOUNDED_CYCLE";
  /** The cycle's nodes, in declaration order (a subgraph's as `parent/child`). */
  readonly nodes: readonly string[];
  readonly message: string;
}

/** Parallel nodes may merge a field in an order-dependent way. */
export interface OrderWarning {
  readonly code: "ORDER_DEPENDENT_MERGE";
  readonly field: string;
  readonly reducer: string;
  /** The nodes that can write the field in one superstep. */
  readonly nodes: readonly string[];
  readonly message: string;
}

/** The groups of nodes that can run in one superstep: fan-out targets, and list-form routes' destinations. */
function parallelGroups(definition: GraphDefinition): string[][] {
  const groups: string[][] = [];
  for (const fanOut of definition.spec.fanOuts ?? []) {
    const nodes = fanOut.to.filter((to) => to !== END);
    if (nodes.length > 1) groups.push(nodes);
  }
  for (const route of definition.spec.routes) {
    // A list-form route may return several destinations, or Send one destination many times: even a
    // single destination can run in parallel with itself.
    const nodes = [...new Set(Object.values(route.paths))].filter((to) => to !== END);
    if (route.sends && nodes.length > 0) groups.push(nodes);
  }
  return groups;
}

/** Warnings for every reducer field that parallel nodes could merge in an order-dependent way. */
export function orderWarnings(definition: GraphDefinition): OrderWarning[] {
  const groups = parallelGroups(definition);
  if (groups.length === 0) return [];
  const warnings: OrderWarning[] = [];
  const acknowledged = new Set(definition.orderedMerge ?? []);
  for (const { field } of definition.spec.reducers) {
    const reducer = definition.reducers[field];
    if (reducer === undefined || acknowledged.has(field)) continue;
    const laws = (reducer as Partial<ReducerMetadata>).laws;
    if (laws?.commutative && laws.associative) continue;
    const name = reducerNameOf(reducer);
    for (const nodes of groups) {
      warnings.push({
        code: "ORDER_DEPENDENT_MERGE",
        field,
        reducer: name,
        nodes,
        message:
          `field "${field}" uses reducer "${name}", which does not claim to be commutative and associative; when ` +
          `${nodes.map((n) => `"${n}"`).join(", ")} write it in one superstep, the result depends on their declaration order. ` +
          `The merge is deterministic (declaration order, on every run and every engine): if that order is intended, as for an ` +
          `event log, say so with orderedMerge: ["${field}"] in the state options; if not, use a commutative reducer ` +
          `(sum for a count, union for a set of unique values), or declare its laws with defineReducer.`,
      });
    }
  }
  return warnings;
}
