/**
 * `coveragePlan(graph, { via: "xstate" })`: the plan computed by `xstate/graph` on the abstract
 * coverage model. Loaded on demand by `plan.ts`, so that only this path loads xstate.
 */
import { START } from "../spec.js";
import type { CoverageModelEvent } from "../xstate/coverage-model.js";
import { CoverageError } from "./errors.js";
import { pathFrom, type CoveragePath } from "./path.js";
import { routeKey, type GraphTransition, type HasSpec } from "./transitions.js";

/** What this file reads of a snapshot of the coverage model. */
interface ModelSnapshot {
  readonly value: unknown;
}

/**
 * A path generator's vertex is a state *and the transition into it*, so that shortest paths reach every
 * transition, not only every state. XState's default already does this, except for a transition that
 * returns to its own state: it drops the suffix there, so a self-loop gives the same key as the state it
 * leaves, which replaces that state in the generator's table and makes `getShortestPathsFrom` throw
 * `Paths cannot be joined`. Keeping the suffix for self-loops avoids both problems.
 */
function serializeTransition(_state: ModelSnapshot, event: CoverageModelEvent | undefined, previous?: ModelSnapshot): string {
  if (event === undefined || previous === undefined) return "";
  return ` via ${event.type} from ${JSON.stringify(previous.value)}`;
}

/**
 * Plans with `createTestModel`: a shortest path to every transition, each extended to END. Returns paths
 * that take every one of `transitions` (the graph's), or throws a CoverageError.
 */
export async function planWithXState(graph: HasSpec, transitions: readonly GraphTransition[]): Promise<CoveragePath[]> {
  const [graphModule, modelModule] = await loadXState();
  const model = graphModule.createTestModel(modelModule.toCoverageModel(graph), { serializeTransition });
  let eventPaths: (readonly CoverageModelEvent[])[];
  try {
    const heads = model.getShortestPaths();
    const full = model.getShortestPathsFrom(heads, { toState: (snapshot) => snapshot.status === "done" });
    eventPaths = full.map((path) => path.steps.slice(1).map((step) => step.event));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new CoverageError(
      "XSTATE_PLAN_FAILED",
      `coveragePlan: xstate/graph failed while planning (${reason}). Omit \`via\` to use the built-in linear plan, which has no such limit.`,
      { cause: error },
    );
  }
  const byKey = new Map(transitions.map((t) => [t.kind === "route" ? routeKey(t.from, t.key) : t.from, t]));
  const paths = eventPaths.map((events) => pathFrom(transitionsAlong(events, byKey)));
  const taken = new Set(paths.flatMap((p) => p.transitions));
  const missing = transitions.filter((t) => !taken.has(t));
  if (missing.length > 0) {
    throw new CoverageError(
      "XSTATE_PLAN_FAILED",
      `coveragePlan: the paths xstate/graph generated miss ${missing.map((t) => t.label).join(", ")}. Omit \`via\` to use the built-in linear plan.`,
      { transitions: missing },
    );
  }
  return paths;
}

/** Reads a path of model events back as the graph's transitions. */
function transitionsAlong(events: readonly CoverageModelEvent[], byKey: ReadonlyMap<string, GraphTransition>): GraphTransition[] {
  let at = START;
  return events.map((event) => {
    // A sequential graph has one fixed edge per source, so its source names it.
    const transition = byKey.get(event.type === "next" ? at : routeKey(at, event.type.slice("route.".length)));
    if (transition === undefined) {
      throw new CoverageError(
        "XSTATE_PLAN_FAILED",
        `coveragePlan: xstate/graph produced the event "${event.type}" at "${at}", which the graph does not declare.`,
      );
    }
    at = transition.to;
    return transition;
  });
}

async function loadXState() {
  try {
    return await Promise.all([import("xstate/graph"), import("../xstate/coverage-model.js")]);
  } catch (error) {
    throw new CoverageError(
      "XSTATE_UNAVAILABLE",
      `coveragePlan: via "xstate" needs the xstate package (5.20 or later, which ships xstate/graph), and it could not be loaded. ` +
        `Install it (npm install xstate), or omit \`via\` for the built-in linear plan.`,
      { cause: error },
    );
  }
}
