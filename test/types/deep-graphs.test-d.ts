/**
 * The type-level reachability search has a depth bound. A graph deeper than the bound must never
 * pass silently: it gets an explicit message and the `typeLevelTopology: false` escape hatch.
 */
import { describe, expectTypeOf, it } from "vitest";
import type { MaxTypeLevelDepth } from "../../src/index.js";
import type { TopologyProblems } from "../../src/builder/types.js";

type Counter<N extends number, Acc extends unknown[] = []> = Acc["length"] extends N ? Acc : Counter<N, [...Acc, unknown]>;
type Indices<N extends number> = keyof Counter<N> & `${number}`;
/** START → n0 → n1 → … → nN → END */
type ChainEdges<N extends number, Acc extends unknown[] = [], Out = never> = Acc["length"] extends N
  ? Out | readonly [`n${N}`, "__end__"]
  : ChainEdges<N, [...Acc, unknown], Out | readonly [`n${Acc["length"]}`, `n${[...Acc, unknown]["length"]}`]>;
type ChainNodes<N extends number> = `n${Indices<N>}` | `n${N}`;
type Chain<N extends number> = TopologyProblems<ChainNodes<N>, readonly ["__start__", "n0"] | ChainEdges<N>, "__start__" | ChainNodes<N>>;

describe("deep graphs", () => {
  it("a chain of 200 nodes is searched and found sound", () => {
    expectTypeOf<Chain<200>>().toEqualTypeOf<never>();
  });

  it("a chain deeper than the bound gets an explicit message, never a silent pass", () => {
    expectTypeOf<MaxTypeLevelDepth>().toEqualTypeOf<256>();
    expectTypeOf<Chain<300>>().toEqualTypeOf<`the graph is too deep for the type-level reachability search (more than 256 layers); call compile({ typeLevelTopology: false }): run-time validation still checks it`>();
  });
});
