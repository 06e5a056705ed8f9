import { invalidArgument } from "../errors.js";
import * as fc from "fast-check";
import type { GraphSpec } from "../spec.js";
import { END, START } from "../spec.js";
import { specOfDraft, type DraftRule, type DraftSpec } from "./_internals/draft-spec.js";
import { parallelChoices, withParallelRules } from "./_internals/parallel-spec.js";
import { repairDraft } from "./_internals/repair-spec.js";
import { defectKinds, withDefects } from "./_internals/spec-defects.js";

/** What {@link arbitraryGraphSpec} generates. */
export interface GraphSpecOptions {
  /** The fewest nodes. Default 0. */
  readonly minNodes?: number;
  /** The most nodes. Default 6. */
  readonly maxNodes?: number;
  /** The most keys in one route's path map. Default 3. */
  readonly maxRouteKeys?: number;
  /**
   * Which specs to generate. Default `"any"`.
   * - `"valid"`: only specs `validateTopology` accepts (cycles included);
   * - `"well-formed"`: unique non-reserved names, at most one rule per source, non-empty path maps with
   *   visible keys, known names; they may have unreachable nodes, dead ends, closed cycles, no START edge;
   * - `"any"`: valid, well-formed and malformed specs (duplicate, reserved or blank names, empty path maps,
   *   blank keys, unknown names, several rules for one source, END as a source, START as a destination).
   */
  readonly kind?: "valid" | "well-formed" | "any";
  /**
   * Also generate parallel rules: fan-outs (`addEdge(a, [b, c])`), joins (`addEdge([a, b], c)`) and
   * routers with a list path map (which may return several destinations, or Sends). Default `false`:
   * sequential specs only (fixed edges and routes). `"valid"` specs stay valid.
   */
  readonly parallel?: boolean;
}

/**
 * Generates random graph specs: nodes, fixed edges, routes with random keys, cycles, unreachable parts
 * and dead ends; with `parallel: true`, fan-outs, joins and list path maps too. Specs have no reducers;
 * give them implementations with `compileGraph` to run them.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { validateTopology } from "typed-state-graph";
 * import { arbitraryGraphSpec, assertEveryNodeReachesEnd } from "typed-state-graph/testing";
 *
 * fc.assert(fc.property(arbitraryGraphSpec({ kind: "valid" }), (spec) => assertEveryNodeReachesEnd(spec)));
 * ```
 */
export function arbitraryGraphSpec(options: GraphSpecOptions = {}): fc.Arbitrary<GraphSpec> {
  const { minNodes = 0, maxNodes = 6, maxRouteKeys = 3, kind = "any", parallel = false } = options;
  if (!Number.isInteger(minNodes) || !Number.isInteger(maxNodes) || minNodes < 0 || maxNodes < minNodes) {
    throw invalidArgument(`arbitraryGraphSpec expects integers 0 <= minNodes <= maxNodes; got minNodes ${minNodes}, maxNodes ${maxNodes}.`);
  }
  if (!Number.isInteger(maxRouteKeys) || maxRouteKeys < 1) {
    throw invalidArgument(`arbitraryGraphSpec expects maxRouteKeys to be a positive integer; got ${maxRouteKeys}.`);
  }
  if (kind !== "valid" && kind !== "well-formed" && kind !== "any") {
    throw invalidArgument(`arbitraryGraphSpec expects kind "valid", "well-formed" or "any"; got ${JSON.stringify(kind)}.`);
  }
  const drafts = fc
    .uniqueArray(nodeName, { minLength: minNodes, maxLength: maxNodes })
    .chain((nodes) =>
      fc.tuple(fc.constant(nodes), fc.array(rule(nodes, maxRouteKeys), { minLength: nodes.length + 1, maxLength: nodes.length + 1 })),
    )
    .map(([nodes, rules]): DraftSpec => {
      const sources = [START, ...nodes];
      const map = new Map<string, DraftRule>();
      rules.forEach((r, i) => {
        const source = sources[i];
        if (r !== undefined && source !== undefined) map.set(source, r);
      });
      return { nodes, rules: map };
    });

  if (typeof parallel !== "boolean")
    throw invalidArgument(`arbitraryGraphSpec expects parallel to be a boolean; got ${JSON.stringify(parallel)}.`);
  const wellFormed = parallel
    ? fc.tuple(drafts, parallelChoices).map(([draft, choices]) => specOfDraft(withParallelRules(draft, choices, { keepValid: false })))
    : drafts.map(specOfDraft);
  const valid = parallel
    ? fc.tuple(drafts, parallelChoices).map(([draft, choices]) => {
        // A copy: fast-check may map the same draft again while it shrinks the choices.
        const repaired: DraftSpec = { nodes: draft.nodes, rules: new Map(draft.rules) };
        repairDraft(repaired);
        return specOfDraft(withParallelRules(repaired, choices, { keepValid: true }));
      })
    : drafts.map((draft) => {
        repairDraft(draft);
        return specOfDraft(draft);
      });
  if (kind === "valid") return valid;
  if (kind === "well-formed") return wellFormed;
  const defects = fc.array(fc.record({ kind: fc.constantFrom(...defectKinds), at: fc.nat() }), { minLength: 1, maxLength: 2 });
  const malformed = fc.tuple(wellFormed, defects).map(([spec, found]) => withDefects(spec, found));
  return fc.oneof(valid, wellFormed, malformed);
}

/** Mostly short readable names; sometimes any visible string, including ones like "__proto__". */
const nodeName = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom("a", "b", "c", "d", "e", "f", "g", "h") },
  { weight: 1, arbitrary: fc.constantFrom("__proto__", "constructor", "toString", "node with spaces") },
  { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 6 }).filter((s) => s.trim() !== "" && s !== START && s !== END) },
);

const routeKey = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom("yes", "no", "retry", "done", "next") },
  { weight: 1, arbitrary: fc.constantFrom("__proto__", "constructor", "hasOwnProperty") },
  { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 6 }).filter((s) => s.trim() !== "") },
);

/** A source's rule: none (a dead end), a fixed edge, or a route; destinations are nodes or END. */
function rule(nodes: readonly string[], maxRouteKeys: number): fc.Arbitrary<DraftRule | undefined> {
  const destination = fc.constantFrom(...nodes, END);
  return fc.oneof(
    { weight: 3, arbitrary: destination.map((to): DraftRule => ({ to })) },
    {
      weight: 3,
      arbitrary: fc
        .uniqueArray(fc.tuple(routeKey, destination), { selector: ([key]) => key, minLength: 1, maxLength: maxRouteKeys })
        .map((paths): DraftRule => ({ paths })),
    },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}
