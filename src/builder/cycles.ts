/**
 * The type-level cycle check of a graph declared with `loops: "bounded"` (issue 41 §1): every cycle
 * crosses a node with a loop bound, which is "the graph minus its bounded nodes is acyclic". The
 * run-time rule is `validate/cycles.ts`; this is the same rule where the builder's types can see the
 * edges: fixed edges, fan-outs and joins, route destinations, a node's `ends` and a bound's exit.
 *
 * It peels the graph the way Kahn's algorithm sorts it, on the adjacency tables the reachability
 * search (`reach.ts`) already built for the same edges (the compiler caches them): first the nodes
 * that no unbounded node leads to, layer by layer, each layer found from the successors of the last
 * one only; then, of what is left, the nodes that lead to none of the rest. What is left after both is
 * the nodes on the unbounded cycles (and on the paths between two of them). Each layer is one
 * indexed access and a check of the new candidates only, so a graph costs about O(nodes + edges).
 * A spent bound sends the run to its exit, so an edge into a bounded node also leads, for this check,
 * where the chain of exits lands ({@link LandingEdges}), as at run time.
 */
import type { End, Start } from "../spec.js";
import type { Quoted } from "./messages.js";
import type { MaxTypeLevelDepth, Predecessors, Successors, TooDeep } from "./reach.js";

/**
 * The edge-shaped record of `loops: "bounded"` in the builder's edges `E`: a one-element tuple, which
 * the reachability search (it reads `[from, to]` pairs) and the edge checks skip. In `E`, not in a
 * type parameter of its own, so that a helper generic over the builder's edges passes it on.
 */
export type LoopsBoundedEdge = readonly ["typed-state-graph: loops: bounded"];

/**
 * The record of a bounded node in `E` (a one-element tuple, as {@link LoopsBoundedEdge}), and of its
 * exit ({@link ExitRecord}); none when `Bound` is `never` (no bound given).
 */
export type BoundEdge<Name extends string, Bound, Exit extends string = never> = [Bound] extends [never]
  ? never
  : readonly [Name] | ([Exit] extends [never] ? never : ExitRecord<Name, Exit>);

/**
 * A bound's exit, recorded apart from the exit's edge (`[name, exit]`, which the reachability search
 * follows like any edge) so that the cycle check can tell it from the node's other edges. Three
 * elements: the searches, which read `[from, to]` pairs, skip it.
 */
export type ExitRecord<Name extends string, Exit extends string> = readonly ["typed-state-graph: bound exit", Name, Exit];

/** The bounded nodes recorded in `E`. */
type BoundedNodes<E> = E extends readonly [infer Name extends string] ? Name : never;

/** Bounded node → its exit, for the bounded nodes that have one. */
type Exits<E> = {
  [P in E as P extends ExitRecord<infer Name, string> ? Name : never]: P extends ExitRecord<string, infer Exit> ? Exit : never;
};

/**
 * Where a run sent to the bounded node `At` lands once that node's bound is spent: its exit, or, when
 * the exit is bounded too, that exit's exit, and so on, to the first unbounded node of the chain;
 * `never` when the chain ends at END, at a bound without an exit (LOOP_BOUND stops the run) or back at
 * a node of the chain. The run-time rule is `landingOf` in `validate/cycles.ts`. Tail-recursive: the
 * compiler runs it as a loop.
 */
type Landing<At, Table, Bounded, Seen = never> = At extends Bounded
  ? At extends Seen
    ? never
    : At extends keyof Table
      ? Landing<Table[At], Table, Bounded, Seen | At>
      : never
  : At extends End
    ? never
    : At;

/**
 * The edges the cycle check adds for spent bounds: `from → landing` for the predecessors `from` (in
 * `Pred`, whose keys are `PK`) of each bounded node `b` whose chain of exits (`Table`) lands on an
 * unbounded node (`x → b`, `b` exits to `c`, `c` to `x` is the loop `x → x` once both are spent). Read
 * per bounded node with an exit, on the reachability search's table of predecessors, not per edge.
 */
type LandingEdges<Pred, PK extends keyof Pred, Table, Bounded> = {
  [B in keyof Table]: Landing<B, Table, Bounded> extends infer Lands
    ? [Lands] extends [never]
      ? never
      : readonly [B extends PK ? Pred[B] : never, Lands]
    : never;
}[keyof Table];

/** {@link LandingEdges} of the graph's edges `E`; `never` when no bound has an exit. */
type SpentBoundEdges<E> =
  Exits<E> extends infer Table
    ? [keyof Table] extends [never]
      ? never
      : Predecessors<E> extends infer Pred
        ? LandingEdges<Pred, keyof Pred, Table, BoundedNodes<E>>
        : never
    : never;

/** Layers per recursion level, and the levels allowed: {@link MaxTypeLevelDepth} layers in all, as the reachability search. */
type MaxLevels = 500;

/**
 * The first peel's next layer: the successors of the last layer that have no predecessor left among
 * the unbounded nodes. `Gone` holds what is peeled (the last layer included), the bounded nodes,
 * START and END. `SuccKeys` and `PredKeys` are the tables' keys, computed once by the caller: for a
 * mapped type with a key remap, each `keyof` walks every edge again (as in `reach.ts`).
 */
type NextSources<Succ, SuccKeys extends keyof Succ, Pred, PredKeys extends keyof Pred, Layer, Gone> =
  Exclude<Succ[Extract<Layer, SuccKeys>], Gone> extends infer Candidate
    ? Candidate extends PredKeys
      ? [Exclude<Pred[Candidate], Gone>] extends [never]
        ? Candidate
        : never
      : Candidate
    : never;

/** The peel, four layers a level and the recursive call in tail position (as `reach.ts`'s search); `Gone` once the layers run out, or {@link TooDeep}. */
type Peel<Succ, SK extends keyof Succ, Pred, PK extends keyof Pred, Layer, Gone, Level extends unknown[]> = [Layer] extends [never]
  ? Gone
  : Level["length"] extends MaxLevels
    ? TooDeep
    : NextSources<Succ, SK, Pred, PK, Layer, Gone | Layer> extends infer L1
      ? NextSources<Succ, SK, Pred, PK, L1, Gone | Layer | L1> extends infer L2
        ? NextSources<Succ, SK, Pred, PK, L2, Gone | Layer | L1 | L2> extends infer L3
          ? Peel<
              Succ,
              SK,
              Pred,
              PK,
              NextSources<Succ, SK, Pred, PK, L3, Gone | Layer | L1 | L2 | L3>,
              Gone | Layer | L1 | L2 | L3,
              [...Level, unknown]
            >
          : never
        : never
      : never;

/** The nodes of `Nodes` that none of `All` leads to, along the table `Pred` whose keys are `PredKeys` (the first layer of a peel). */
type Sources<Pred, PredKeys extends keyof Pred, Nodes, All = Nodes> = Nodes extends PredKeys
  ? [Extract<Pred[Nodes], All>] extends [never]
    ? Nodes
    : never
  : Nodes;

/** The nodes, besides `Outside`, peeled from `Nodes` along `Forward`: those on no cycle of `Nodes` seen from that side. */
type PeelFrom<Forward, Backward, Nodes, Outside> = Peel<
  Forward,
  keyof Forward,
  Backward,
  keyof Backward,
  Sources<Backward, keyof Backward, Nodes>,
  Outside,
  []
>;

/**
 * The unbounded nodes on a cycle: the graph's nodes `N` minus its bounded ones, peeled from their
 * sources, then from their sinks. {@link TooDeep} when a peel runs out of levels.
 */
export type UnboundedCycleNodes<N extends string, E> =
  SpentBoundEdges<E> extends infer Landings
    ? // The tables of `E` alone (those the reachability search built) unless a spent bound adds edges.
      [Landings] extends [never]
      ? CycleNodesAlong<Successors<E>, Predecessors<E>, Exclude<N, BoundedNodes<E>>, BoundedNodes<E>>
      : CycleNodesAlong<Successors<E | Landings>, Predecessors<E | Landings>, Exclude<N, BoundedNodes<E>>, BoundedNodes<E>>
    : never;

/** {@link UnboundedCycleNodes} on the adjacency tables `Succ` and `Pred`, of the nodes `Unbounded`. */
type CycleNodesAlong<Succ, Pred, Unbounded, Bounded> =
  // Every name that is not an unbounded node, as the peels' start: START, END and the bounded nodes.
  PeelFrom<Succ, Pred, Unbounded, Start | End | Bounded> extends infer Forward
    ? [Forward] extends [TooDeep]
      ? TooDeep
      : Exclude<Unbounded, Forward> extends infer Left
        ? [Left] extends [never]
          ? never
          : // `Forward` is every name outside `Left` (the first peel's start and what it peeled).
            PeelFrom<Pred, Succ, Left, Forward> extends infer Backward
            ? [Backward] extends [TooDeep]
              ? TooDeep
              : Exclude<Left, Backward>
            : never
        : never
    : never;

/**
 * `compile()`'s message for a graph declared with `loops: "bounded"` whose unbounded cycles the
 * builder's types see: one sentence naming their nodes. Built only when there is such a cycle.
 */
export type UnboundedCycleProblems<N extends string, E> = LoopsBoundedEdge extends E
  ? UnboundedCycleNodes<N, E> extends infer X
    ? [X] extends [never]
      ? never
      : [X] extends [TooDeep]
        ? `loops: "bounded": the graph is too deep for the type-level cycle check (more than ${MaxTypeLevelDepth} layers); call compile({ typeLevelTopology: false }): run-time validation still checks it`
        : `loops: "bounded", but the cycle through ${NameList<X>} crosses no bounded node, so only recursionLimit stops it; bound one of its nodes: addNode(name, fn, { bound: { max, exit } })`
    : never
  : never;

/** Names the message lists before it writes "…": the sentence stays readable for a cycle through many nodes. */
type MaxListed = 8;

/** `"a", "b", "c"`: the members of a union of names, quoted, in the compiler's order of the union. */
type NameList<U, Listed extends unknown[] = []> = [U] extends [never]
  ? never
  : Listed["length"] extends MaxListed
    ? "…"
    : LastOf<U> extends infer Name extends string
      ? [Exclude<U, Name>] extends [never]
        ? Quoted<Name>
        : `${NameList<Exclude<U, Name>, [...Listed, unknown]>}, ${Quoted<Name>}`
      : never;

/** One member of a union (the last the compiler lists): a union of functions read as an overload set infers from its last signature. */
type LastOf<U> = (U extends unknown ? (pick: () => U) => void : never) extends (pick: infer Last) => void
  ? Last extends () => infer Member
    ? Member
    : never
  : never;
