/**
 * `coveragePlan(graph, { via: "xstate" })`: the plan computed by `xstate/graph` on the abstract
 * coverage model; `{ via: "@xstate/graph" }`: the same, by the separate `@xstate/graph` package (the
 * one XState's design documents name). Loaded on demand by `plan.ts`, so that only this path loads xstate.
 */
import { START } from "../spec.js";
import type { CoverageModelEvent } from "../xstate/coverage-model.js";
import { CoverageError } from "./errors.js";
import { pathFrom, type CoveragePath } from "./path.js";
import { routeKey, type GraphTransition, type HasSpec } from "./transitions.js";

/** The path generators `via` can name: xstate's own subpath, or the separate package. */
export type XStatePlanner = "xstate" | "@xstate/graph";

/** The coverage model a path generator explores. */
type CoverageMachine = ReturnType<typeof import("../xstate/coverage-model.js").toCoverageModel>;

/** A generated path, as far as the plan reads it. */
interface GeneratedPath {
  readonly steps: readonly { readonly event: CoverageModelEvent }[];
}

/**
 * What the plan uses of a path generator module. `xstate/graph` and `@xstate/graph` 3 both offer it,
 * with classes that TypeScript tells apart (each declares its own private members), hence this shape.
 */
interface GraphModule {
  createTestModel(
    machine: CoverageMachine,
    options: { serializeTransition: typeof serializeTransition },
  ): {
    getShortestPaths(): GeneratedPath[];
    getShortestPathsFrom(paths: GeneratedPath[], options: { toState: (snapshot: { status: string }) => boolean }): GeneratedPath[];
  };
}

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
export async function planWithXState(
  graph: HasSpec,
  transitions: readonly GraphTransition[],
  planner: XStatePlanner,
): Promise<CoveragePath[]> {
  const [graphModule, modelModule] = await loadXState(planner);
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
      `coveragePlan: ${moduleOf(planner)} failed while planning (${reason}). Omit \`via\` to use the built-in linear plan, which has no such limit.`,
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
      `coveragePlan: the paths ${moduleOf(planner)} generated miss ${missing.map((t) => t.label).join(", ")}. Omit \`via\` to use the built-in linear plan.`,
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
        `coveragePlan: the path generator produced the event "${event.type}" at "${at}", which the graph does not declare.`,
      );
    }
    at = transition.to;
    return transition;
  });
}

const moduleOf = (planner: XStatePlanner): string => (planner === "xstate" ? "xstate/graph" : "@xstate/graph");

const importGenerator = (planner: XStatePlanner): Promise<GraphModule> =>
  planner === "xstate" ? import("xstate/graph") : import("@xstate/graph");

async function loadXState(planner: XStatePlanner): Promise<[GraphModule, typeof import("../xstate/coverage-model.js")]> {
  try {
    return await Promise.all([importGenerator(planner), import("../xstate/coverage-model.js")]);
  } catch (error) {
    const needs =
      planner === "xstate"
        ? "the xstate package (5.20 or later, which ships xstate/graph), and it could not be loaded. Install it (npm install xstate)"
        : "the @xstate/graph package and xstate, and they could not be loaded. Install them (npm install @xstate/graph xstate)";
    throw new CoverageError(
      "XSTATE_UNAVAILABLE",
      `coveragePlan: via "${planner}" needs ${needs}, or omit \`via\` for the built-in linear plan.`,
      {
        cause: error,
      },
    );
  }
}
