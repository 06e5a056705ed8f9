/**
 * The type-level reachability search has a depth bound, {@link MaxTypeLevelDepth} BFS layers. Up to it
 * the search runs (it finds a deliberate orphan node, which only the search can find); beyond it a
 * graph never passes silently: it gets an explicit message and the `typeLevelTopology: false` escape
 * hatch. The chains are generated at the type level; bench/types checks written-out graphs of each
 * form up to 1,000 nodes.
 */
import { describe, expectTypeOf, it } from "vitest";
import type { MaxTypeLevelDepth } from "../../src/index.js";
import type { TopologyProblems } from "../../src/builder/types.js";

/** `[0, 1, …, N-1]` as a union of numbers (N < 1,000: the generator is a loop of at most 1,000 steps). */
type Counter<N extends number, Acc extends unknown[] = []> = Acc["length"] extends N ? Acc : Counter<N, [...Acc, unknown]>;
type Indices<N extends number> = keyof Counter<N> & `${number}`;
/** `P0 → P1 → … → P(N-1)`: the pairs of a chain of N nodes named with prefix `P`. */
type Links<P extends string, N extends number, Acc extends unknown[] = [], Out = never> = [...Acc, unknown]["length"] extends N
  ? Out
  : Links<P, N, [...Acc, unknown], Out | readonly [`${P}${Acc["length"]}`, `${P}${[...Acc, unknown]["length"]}`]>;
type Names<P extends string, N extends number> = `${P}${Indices<N>}`;

/** A chain of `Segments` × N nodes (segments `a`, `b`, `c` joined end to start), START → … → END, and an orphan. */
type Segment = "a" | "b" | "c";
type ChainOf<Segments extends readonly Segment[], N extends number> = ChainProblems<
  Names<Segments[number], N>,
  Segments[number] extends infer P extends string ? (P extends unknown ? Links<P, N> : never) : never,
  Joints<Segments, N>,
  `${Segments[0]}0`,
  `${Last<Segments>}${Previous<N>}`
>;
type Last<T extends readonly unknown[]> = T extends readonly [...unknown[], infer L extends string] ? L : never;
type Previous<N extends number> = Counter<N> extends [unknown, ...infer Rest] ? Rest["length"] : never;
type Joints<Segments extends readonly Segment[], N extends number> = Segments extends readonly [
  infer A extends Segment,
  infer B extends Segment,
  ...infer Rest extends Segment[],
]
  ? readonly [`${A}${Previous<N>}`, `${B}0`] | Joints<[B, ...Rest], N>
  : never;
type ChainProblems<Nodes extends string, Pairs, Joints, First extends string, Final extends string> = TopologyProblems<
  Nodes | "orphan",
  readonly ["__start__", First] | Pairs | Joints | readonly [Final, "__end__"] | readonly ["orphan", "__end__"],
  "__start__" | Nodes | "orphan"
>;

const ORPHAN = `node "orphan" is not reachable from START; add an edge that leads to it, or remove it`;
const TOO_DEEP = `the graph is too deep for the type-level reachability search (more than 2000 layers); call compile({ typeLevelTopology: false }): run-time validation still checks it`;

describe("deep graphs", () => {
  it("the bound is 2,000 layers", () => {
    expectTypeOf<MaxTypeLevelDepth>().toEqualTypeOf<2000>();
  });

  it("a chain of 900 nodes is searched: the orphan is found", () => {
    expectTypeOf<ChainOf<["a"], 900>>().toEqualTypeOf<typeof ORPHAN>();
  });

  it("a chain of 1,000 nodes is searched, without TS2589", () => {
    expectTypeOf<ChainOf<["a", "b"], 500>>().toEqualTypeOf<typeof ORPHAN>();
  });

  it("a chain of 1,998 nodes (2,000 layers with START and END) is searched", () => {
    expectTypeOf<ChainOf<["a", "b", "c"], 666>>().toEqualTypeOf<typeof ORPHAN>();
  });

  it("a chain deeper than the bound gets an explicit message, never a silent pass", () => {
    expectTypeOf<ChainOf<["a", "b", "c"], 700>>().toEqualTypeOf<typeof TOO_DEEP>();
  });
});
