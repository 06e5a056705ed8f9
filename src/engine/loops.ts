/**
 * `compile()`'s loop rule (validate/cycles.ts decides it): a cycle that crosses no bounded node is a
 * warning, or, for a graph declared with `loops: "bounded"`, an `UNBOUNDED_CYCLE` problem.
 */
import type { GraphProblem } from "../errors.js";
import type { GraphSpec } from "../spec.js";
import { unboundedCycleMessage, unboundedCycles } from "../validate/cycles.js";
import type { GraphDefinition } from "./executable.js";
import type { UnboundedCycleWarning } from "./warnings.js";

/** The `UNBOUNDED_CYCLE` problems of a graph that declared `loops: "bounded"`; none for any other. */
export function loopProblems(definition: GraphDefinition): GraphProblem[] {
  if (definition.loops !== "bounded") return [];
  return unboundedCycles(definition.spec).map((cycle) => ({
    code: "UNBOUNDED_CYCLE",
    node: cycle.nodes[0] as string,
    message: `loops: "bounded": ${unboundedCycleMessage(cycle)}`,
  }));
}

/** The `UNBOUNDED_CYCLE` warnings of a graph that did not declare `loops: "bounded"` (its subgraphs' cycles included). */
export function loopWarnings(definition: GraphDefinition, spec: GraphSpec): UnboundedCycleWarning[] {
  if (definition.loops === "bounded") return [];
  return unboundedCycles(spec).map((cycle) => ({ code: "UNBOUNDED_CYCLE", nodes: cycle.nodes, message: unboundedCycleMessage(cycle) }));
}
