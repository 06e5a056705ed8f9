/**
 * The typed surface of the declarative forms: `defineGraph<S>()({ nodes, edges, routes })` and
 * `bindSpec(spec, implementations)`. They carry the builder's compile-time guarantees; the messages are
 * the same kind of text types as the builder's (see `types.ts`).
 */
import type { AnyReducer, LoopBound, NodePolicy } from "../engine/index.js";
import type { NodeContext } from "../engine/index.js";
import type { Command, Send } from "../engine/index.js";
import type { End, Start } from "../spec.js";
import type { RouteDeclaration } from "./route.js";
import type {
  Awaitable,
  CompileOptions,
  KeepsGotoLiterals,
  ListRouteProblems,
  NodeResult,
  FieldSchemasFor,
  ReducersFor,
  StateReaderMessages,
} from "./types.js";
import type { NoStartEdge, TooDeepMessage, TopologyRules } from "./topology.js";

import type { GotoProblems, GotoRecords } from "./command-gotos.js";
import type { FieldList } from "./field-list.js";
import type { FanOutConflicts, RouteConflicts, TableWrites } from "./parallel-writes.js";
import type { Demand, NeedsResultChecks, Quoted, ResultChecks, TypeLevelError } from "./messages.js";
type Members<T> = T extends readonly (infer X)[] ? X : T;

/**
 * The nodes object: name → node function of the state (and, optionally, its {@link NodeContext}), or
 * of its own input for a node that `Send` targets. `Inputs` is each node's parameter type, inferred
 * through this mapped type: a node that annotates its parameter gives that type; one that does not
 * (or takes none) gives `unknown`, and reads the state. `Inputs` is apart from the node types:
 * the unannotated nodes' parameters are typed from it, which fixes it before their results are
 * inferred, so it must not hold their results.
 */
export type NodeTable<S, Inputs> = { readonly [K in keyof Inputs]: (input: NodeInput<Inputs, K, S>, context: NodeContext) => unknown };

/**
 * The constraint of the nodes object. While `Inputs` holds nothing (every node is unannotated, so
 * the first pass of inference learns no parameter type), each node reads the state: the constraint
 * then types their parameters, as a table of the node inputs could not.
 */
export type NodeTableConstraint<S, Inputs> = [keyof Inputs] extends [never]
  ? { readonly [name: string]: (state: S, context: NodeContext) => unknown }
  : NodeTable<S, Inputs>;

/** The input node `K` reads: its parameter's annotated type, else the state. */
export type NodeInput<Inputs, K, S> = K extends keyof Inputs ? (unknown extends Inputs[K] ? S : Inputs[K]) : S;

/**
 * The nodes whose parameter is annotated, with its type: the builder's record of node inputs (see
 * `WithInput` in `types.ts`), so the builder's Send and edge checks read it unchanged.
 */
export type DeclaredInputs<Inputs> = { readonly [K in keyof Inputs as unknown extends Inputs[K] ? never : K]: Inputs[K] };

/** The update type a node function returns (what its Promise resolves to, without `void` or a `Command`). */
export type UpdateOf<F> = F extends (...args: never[]) => infer R
  ? Exclude<Awaited<R>, void | undefined | Command<unknown, object, string>>
  : never;

/**
 * Each node checked: a usable name, and a node function of its input whose result is a partial state,
 * a Command within its ends, or nothing. The function type it is read against, {@link NodeResult}, is
 * built from the state and the ends only, so every node without ends shares one instance and nothing
 * is inferred from it; what reads the node's own result is {@link NodeChecks}.
 */
export type CheckedNodes<S extends object, Nodes, Ends = {}, Inputs = {}> = {
  readonly [K in keyof Nodes]: K extends Start | End
    ? `defineGraph: ${Quoted<K>} is reserved; choose another node name`
    : K extends ""
      ? "defineGraph: a node name cannot be empty"
      : NodeChecks<Nodes[K], K, S, EndsOf<Ends, K>, Inputs> &
          ((state: NodeInput<Inputs, K, S>, context: NodeContext) => NodeResult<S, EndsOf<Ends, K> | KeepsGotoLiterals>);
};

/**
 * The checks of node `K` that read its inferred result: not a primitive or an array, no key that is
 * not a field, a Command's goto within its ends `G`. A result whose keys are all fields of `S` (a
 * partial state, nothing) needs none of them, and passes on one comparison ({@link NeedsResultChecks}):
 * the full checks cost about a third of a node's check on TS 6 (`npm run bench:types`).
 */
type NodeChecks<F, K, S, G, Inputs> = F extends (...args: never[]) => infer R
  ? [NeedsResultChecks<R, S>] extends [never]
    ? unknown
    : ResultChecks<"defineGraph", K, R, S> & GotoCheck<"defineGraph", F, G, K> & GotoInputCheck<F, K, S, G, Inputs>
  : unknown;

/**
 * Node `K`'s Command goto against its targets' inputs (the builder's rule, `command-gotos.ts`): here at
 * the node, since the table declares every node's input at once.
 */
type GotoInputCheck<F, K, S, G, Inputs> =
  GotoProblems<GotoRecords<K & string, F, readonly (G & string)[]>, S, DeclaredInputs<Inputs>> extends infer P extends string
    ? [P] extends [never]
      ? unknown
      : Demand<`defineGraph: ${P}`>
    : unknown;

/**
 * Where node `K`'s Command may go: its entry of `ends`. While `nodes` is inferred, `Ends` is not yet
 * known and the compiler reads it as `never`; `never` must give `never` (no destination), not the
 * `string` that `infer X extends string` would match against it, or a node's `new Command({ update })`
 * would infer `goto` as `string` from this contextual type and fail its own check.
 */
type EndsOf<Ends, K> = K extends keyof Ends
  ? [Ends[K]] extends [never]
    ? never
    : Ends[K] extends readonly (infer X extends string)[]
      ? X
      : never
  : never;

/** The `[node, destination]` pairs of `ends`: the compiler's reachability search follows them. */
export type EndsPairs<Ends> = { [F in keyof Ends]: readonly [F, EndsOf<Ends, F>] }[keyof Ends];

type Pairs<Edges, Routes, Ends = {}> = EdgePairs<Edges> | RoutePairs<Routes> | EndsPairs<Ends>;

/**
 * The topology rules (shared with the builder, see `topology.ts`) for the declaration. A node with
 * `ends` leaves (its Command goes there), and its ends are edges of the search.
 */
type DeclarationRules<N extends string, Edges, Routes, Ends = {}> = TopologyRules<
  N,
  Pairs<Edges, Routes, Ends>,
  RuleSources<Edges, Routes> | (keyof Ends & string),
  "defineGraph"
>;

/** The problems reported on `edges`, not on the result: they concern the graph as a whole. */
type GraphWideRules = NoStartEdge<"defineGraph"> | TooDeepMessage<"defineGraph">;

/**
 * What `defineGraph` returns: the compiled graph when every node is sound, else an object whose key is
 * the message, so using the result (`graph.invoke(…)`) reads as the list of problems. The check sits in
 * the result because any check inside the arguments would fix the node types before the node functions
 * were inferred.
 */
export type DefinedGraph<Compiled, Nodes, Edges, Routes, O, Ends = {}> = O extends { readonly typeLevelTopology: false }
  ? Compiled
  : Exclude<DeclarationRules<keyof Nodes & string, Edges, Routes, Ends>, GraphWideRules> extends infer P extends string
    ? [P] extends [never]
      ? Compiled
      : TypeLevelError<P extends string ? `defineGraph: ${P}` : never>
    : never;

/** The sources of one edge: a join counts once for each of its sources. */
type SourcesOfEdge<Edge> = Edge extends readonly [infer F, unknown] ? (F extends readonly string[] ? F : [F]) : [];

/**
 * Each edge's source, in order. Four edges per step: the compiler runs this recursion as a loop of at
 * most 1,000 steps, so one edge per step would fail (TS2589) on a list of 1,000 edges.
 */
type EdgeSourceList<Edges, Out extends unknown[] = []> = Edges extends readonly [infer A, infer B, infer C, infer D, ...infer Rest]
  ? EdgeSourceList<Rest, [...Out, ...SourcesOfEdge<A>, ...SourcesOfEdge<B>, ...SourcesOfEdge<C>, ...SourcesOfEdge<D>]>
  : Edges extends readonly [infer First, ...infer Rest]
    ? EdgeSourceList<Rest, [...Out, ...SourcesOfEdge<First>]>
    : Out;

/** `X` when it was seen before. */
type Again<X, Seen> = X extends Seen ? X : never;

/** The sources named by more than one rule: two edges, or an edge and a route. Four per step, as above. */
type RepeatedSources<List extends unknown[], Seen = never, Out = never> = List extends [infer A, infer B, infer C, infer D, ...infer Tail]
  ? RepeatedSources<
      Tail,
      Seen | A | B | C | D,
      Out | Again<A, Seen> | Again<B, Seen | A> | Again<C, Seen | A | B> | Again<D, Seen | A | B | C>
    >
  : List extends [infer Head, ...infer Tail]
    ? RepeatedSources<Tail, Seen | Head, Out | Again<Head, Seen>>
    : Out;

type DuplicateRules<Edges, Routes> = RepeatedSources<EdgeSourceList<Edges>> | Extract<EdgeSourceList<Edges>[number], keyof Routes>;

/** The problems of the graph as a whole: no START edge, a source with two rules, or too deep to search. */
type EdgesTopologyProblems<Edges, Routes, O> = O extends { readonly typeLevelTopology: false }
  ? never
  :
      | (Extract<DeclarationRules<never, Edges, Routes>, GraphWideRules> extends infer P extends string
          ? P extends unknown
            ? `defineGraph: ${P}`
            : never
          : never)
      | (DuplicateRules<Edges, Routes> extends infer D extends string
          ? D extends unknown
            ? `defineGraph: ${Quoted<D>} has more than one rule (two edges, or an edge and a route); give each source one rule, or fan out with a list`
            : never
          : never);

/** The destinations of `edges`: each gets the state, so none may be a node that takes its own input (`I`: see {@link DeclaredInputs}). */
type EdgeProblems<Edges, S, I> = [keyof I] extends [never]
  ? never
  : StateReaderMessages<EdgePairs<Edges> extends readonly [unknown, infer To] ? To : never, S, I, "defineGraph">;

/**
 * The fan-outs of `edges` two of whose targets surely write a field without a reducer (not in
 * `Reduced`), by the builder's rule (see `parallel-writes.ts`). The sources of a join are not
 * reported: they may arrive in different supersteps.
 */
type FanOutProblems<Edges, Nodes, S, Reduced> = Edges extends readonly (infer E)[]
  ? E extends readonly [unknown, infer To extends readonly string[]]
    ? FanOutConflicts<To, TableWrites<Nodes, To[number], S, Reduced>> extends infer Message extends string
      ? `defineGraph: ${Message}`
      : never
    : never
  : never;

/**
 * The problems reported on `edges`: those of the graph as a whole (see {@link EdgesTopologyProblems})
 * and those of its edges (see {@link EdgeProblems}, {@link FanOutProblems}), as one error, whose text
 * lists them.
 */
export type EdgesCheck<Edges, Routes, O, S = never, I = {}, Nodes = {}, Reduced = never> = [
  EdgesTopologyProblems<Edges, Routes, O> | EdgeProblems<Edges, S, I> | FanOutProblems<Edges, Nodes, S, Reduced>,
] extends [infer P]
  ? [P] extends [never]
    ? unknown
    : TypeLevelError<P>
  : unknown;

/**
 * One entry of `edges`: `[from, to]`, with a list on the right for a fan-out or on the left for a join.
 * `defineGraph` checks the edges against it in the constraint of their type parameter
 * (`Edges extends readonly EdgeDeclaration<…>[]`), not in {@link GraphDeclaration}: intersecting the
 * inferred tuple with an array type there made the compiler resolve and relate the members of two
 * array types on every call, about half the check of a one-node graph on TS 6 (`npm run bench:types`),
 * and a wrong name is now reported on the name itself.
 */
export type EdgeDeclaration<N extends string> = readonly [from: N | Start | readonly N[], to: N | End | readonly (N | End)[]];

/**
 * Each route checked: its source is a declared node (or START), its destinations are declared, and
 * each gets what it reads (see {@link RouteProblems}).
 */
export type CheckedRoutes<S, N extends string, Routes, I = {}, Nodes = {}, Reduced = never> = {
  readonly [F in keyof Routes]: F extends N | Start
    ? RouteDeclaration<S> & RouteCheck<UndeclaredDestinations<F, Routes[F], N> | RouteProblems<F, Routes[F], S, I, Nodes, Reduced>>
    : `defineGraph: the route source ${Quoted<F>} is not a declared node; add it to \`nodes\` or fix the name`;
};

/**
 * A sentence for each destination of route `R` from `F` that is not a declared node or END (a path
 * map's values, or a list-form route's list). Read here, not in the route's type (a record of the
 * declared names), where the compiler's own text was `'"bb"' is not assignable to '"a" | "b" | "__end__"'`.
 */
type UndeclaredDestinations<F, R, N extends string> = R extends { readonly paths: infer P }
  ? Exclude<P[keyof P], N | End> extends infer X extends string
    ? X extends unknown
      ? `defineGraph: the route from ${Quoted<F>} leads to ${Quoted<X>}, which is not a declared node; add it to \`nodes\`, or fix the name`
      : never
    : never
  : never;

type RouteCheck<Problems> = [Problems] extends [never] ? unknown : TypeLevelError<Problems>;

/**
 * The problems of route `R` from `F`, as the builder finds them: a path map's destinations get the
 * state, so none may take its own input; a list-form route (its destinations a written list) names
 * such a node only through a `Send`, sends each target its input (see `ListRouteProblems`), and
 * cannot start together two nodes that surely write a field without a reducer (see `RouteConflicts`).
 */
type RouteProblems<F, R, S, I, Nodes, Reduced> = R extends { readonly destinations: infer D extends readonly string[] }
  ? number extends D["length"]
    ? [keyof I] extends [never]
      ? never // the common case, checked first: a path map, and every node reads the state
      : R extends { readonly paths: infer P }
        ? StateReaderMessages<P[keyof P], S, I, "defineGraph">
        : never
    : R extends RouteDeclaration<never, Readonly<Record<string, string>>, infer Out>
      ?
          | ListRouteProblems<F, Out, D[number], S, I>
          | RouteConflicts<F, Out, D, TableWrites<Nodes, D[number], S, Reduced>> extends infer Message extends string
        ? `defineGraph: ${Message}`
        : never
      : never
  : never;

/** The `[from, to]` pairs of `edges`, flattened for the reachability search. */
export type EdgePairs<Edges> = Edges extends readonly (infer E)[]
  ? E extends readonly [infer F, infer T]
    ? readonly [Members<F>, Members<T>]
    : never
  : never;

/** The `[from, to]` pairs of `routes`. */
export type RoutePairs<Routes> = {
  [F in keyof Routes]: Routes[F] extends RouteDeclaration<never, infer P> ? readonly [F, P[keyof P]] : never;
}[keyof Routes];

/** The sources that have a rule. */
export type RuleSources<Edges, Routes> =
  | (EdgePairs<Edges> extends readonly [infer F, unknown] ? F & string : never)
  | (keyof Routes & string);

/**
 * Every key of `reducers` is a field of the state. `reducers` is inferred (so the compiler knows which
 * fields have a reducer), which skips the excess-property check a literal of `ReducersFor<S>` would get.
 */
type ReducerFieldsCheck<Reducers, S> = [Exclude<keyof Reducers, keyof S>] extends [never]
  ? unknown
  : Demand<
      Exclude<keyof Reducers, keyof S> extends infer X
        ? X extends string
          ? `defineGraph: reducers names ${Quoted<X>}, which is not a field of the state; give reducers only to declared fields`
          : never
        : never
    >;

/** The declarative definition `defineGraph` takes. */
export interface GraphDeclaration<S extends object, Nodes, Edges, Routes, O, Ends = {}, Inputs = {}, Reducers = ReducersFor<S>> {
  /** Field → reducer, as in `stateGraph<S>()({ reducers })`: the fields it names may be written by parallel nodes. */
  readonly reducers?: Reducers & ReducerFieldsCheck<Reducers, S>;
  /** Every state field, as in `stateGraph<S>()({ fields })` (checked the same way: every field, each once). */
  readonly fields?: FieldList<S>;
  /** Reducer fields whose declaration-order merge is intended, as in `stateGraph<S>()({ orderedMerge })`. */
  readonly orderedMerge?: readonly (keyof S & string)[];
  /** Field → Standard Schema validating each update of the field on its own, as in `stateGraph<S>()({ fieldSchemas })`. */
  readonly fieldSchemas?: FieldSchemasFor<S>;
  /** `"bounded"`: every cycle must cross a bounded node, as in `stateGraph<S>()({ loops })`. */
  readonly loops?: "bounded";
  /** Each bounded node's loop bound, as `addNode(name, fn, { bound })` takes it: at most `max` visits per run, then `exit`. */
  readonly bounds?: { readonly [Name in keyof Nodes]?: LoopBound<(keyof Nodes & string) | End> };
  /** The deferred nodes, as `addNode(name, fn, { defer: true })` declares one: each waits until no other node has a task pending. */
  readonly defer?: readonly (keyof Nodes & string)[];
  readonly nodes: Nodes & NodeTable<S, Inputs> & CheckedNodes<S, Nodes, Ends, Inputs>;
  readonly edges: Edges & EdgesCheck<Edges, Routes, O, S, DeclaredInputs<NoInfer<Inputs>>, NoInfer<Nodes>, NoInfer<keyof Reducers>>;
  readonly routes?: Routes &
    CheckedRoutes<S, NoInfer<keyof Nodes & string>, Routes, DeclaredInputs<NoInfer<Inputs>>, NoInfer<Nodes>, NoInfer<keyof Reducers>>;
  /**
   * Retry, timeout, cache and error-handler policies by node, as `addNode(name, fn, policy)` takes them (a
   * cache key and a handler read the node's input; a handler's `Command` goes to the node's `ends`).
   */
  readonly policies?: {
    readonly [Name in keyof Nodes]?: NodePolicy<
      NodeInput<NoInfer<Inputs>, Name, S>,
      NodeResult<S, EndsOf<NoInfer<Ends>, Name> | KeepsGotoLiterals>
    >;
  };
  /** Where each node's `Command` may go, by node, as `addNode(name, fn, { ends })` takes them. */
  readonly ends?: Ends & CheckedEnds<NoInfer<keyof Nodes & string>, Ends>;
}

/** Each entry of `ends` belongs to a node and lists nodes (or END). */
export type CheckedEnds<N extends string, Ends> = {
  readonly [F in keyof Ends]: F extends N
    ? readonly (N | End)[]
    : `defineGraph: ends names ${Quoted<F>}, which is not a node; add it to \`nodes\` or fix the name`;
};

/** The options `defineGraph` takes after the definition. */
export type DefineOptions = CompileOptions;

// ---- bindSpec -----------------------------------------------------------------------------------

/** A spec as `bindSpec` reads it: the plain data of `compiled.spec`, typically written `as const`. */
export interface BindableSpec {
  readonly nodes: readonly string[];
  readonly edges: readonly { readonly from: string; readonly to: string }[];
  readonly routes: readonly {
    readonly from: string;
    readonly router?: string;
    readonly paths: Readonly<Record<string, string>>;
    readonly sends?: boolean;
  }[];
  readonly fanOuts?: readonly { readonly from: string; readonly to: readonly string[] }[];
  readonly joins?: readonly { readonly from: readonly string[]; readonly to: string }[];
  /** Where each node's `Command` may go (`addNode`'s `ends`). */
  readonly ends?: readonly { readonly from: string; readonly to: readonly string[] }[];
  readonly reducers?: readonly { readonly field: string; readonly reducer: string }[];
  readonly fields?: readonly string[];
  /** Recorded by `compile()` for subgraph nodes; bound nodes bring their own (made with `subgraph`). */
  readonly subgraphs?: Readonly<Record<string, unknown>>;
}

/** What `bindSpec` binds a spec to: a function per node, a router per conditional source, and any custom reducer by field. */
export interface Implementations {
  readonly nodes: { readonly [name: string]: (state: never) => unknown };
  readonly routers?: { readonly [source: string]: (state: never) => unknown };
  /** Reducers by field, for reducer names that are not built-in (`append`, `replace`, `sum`, `union`, `mergeById`). */
  readonly reducers?: { readonly [field: string]: AnyReducer };
  /** Retry, timeout and cache policies by node. */
  readonly policies?: { readonly [name: string]: NodePolicy<never> };
}

type SpecNodes<Sp extends BindableSpec> = Sp["nodes"][number];
type SpecRoute<Sp extends BindableSpec, F> = Extract<Sp["routes"][number], { readonly from: F }>;
type SpecRouteKeys<Sp extends BindableSpec, F> = keyof SpecRoute<Sp, F>["paths"] & string;
/** The keys a router can return: its literal keys, and the node a `Send` targets. */
type RouterKeys<R> = R extends (...args: never[]) => infer Out ? KeyOfChoice<Members<Awaited<Out>>> : never;
type KeyOfChoice<C> = C extends Send<infer K> ? K : C;
type RouterOf<Impl extends Implementations, F> = F extends keyof NonNullable<Impl["routers"]> ? NonNullable<Impl["routers"]>[F] : never;
type UnreturnedSpecKeys<Sp extends BindableSpec, Impl extends Implementations, F> =
  string extends SpecRouteKeys<Sp, F> ? never : Exclude<SpecRouteKeys<Sp, F>, RouterKeys<RouterOf<Impl, F>>>;

/**
 * A router for source `F`: returns only the spec's keys (or Sends to them), can return each of them,
 * and sends each target its input.
 */
type CheckedRouter<Sp extends BindableSpec, Impl extends Implementations, F> = ((
  state: never,
) => Awaitable<SpecRouteKeys<Sp, F> | readonly (SpecRouteKeys<Sp, F> | Send<SpecRouteKeys<Sp, F>>)[]>) &
  (
    | ([UnreturnedSpecKeys<Sp, Impl, F>] extends [never]
        ? never
        : `bindSpec: the router for ${Quoted<F>} never returns ${Quoted<UnreturnedSpecKeys<Sp, Impl, F>>}, a key of the spec's route`)
    | SendPayloadMessages<Impl, F, RouterOf<Impl, F>> extends infer Problems
    ? [Problems] extends [never]
      ? unknown
      : TypeLevelError<Problems>
    : unknown);

/** The input implementation `T` reads: its parameter's type (the state, for a node typed by the state; anything, for one that takes none). */
type ImplementationInput<Impl extends Implementations, T> = T extends keyof Impl["nodes"]
  ? Impl["nodes"][T] extends (input: infer I, ...rest: never[]) => unknown
    ? I
    : unknown
  : unknown;

/** A message for each `Send` of router `R` whose payload is not its target's input, as the builder checks them. */
type SendPayloadMessages<Impl extends Implementations, F, R> = R extends (...args: never[]) => infer Out
  ? Members<Awaited<Out>> extends infer Choice
    ? Choice extends Send<infer T, infer Payload>
      ? [Payload] extends [ImplementationInput<Impl, T>]
        ? never
        : `bindSpec: the router for ${Quoted<F>} sends ${Quoted<T>} a payload that is not its input (its parameter type)`
      : never
    : never
  : never;

/** Every node and conditional source of the spec implemented, nothing extra, routers returning exactly the spec's keys. */
export type CheckedImplementations<Sp extends BindableSpec, Impl extends Implementations> = {
  readonly nodes: {
    readonly [K in SpecNodes<Sp>]: ((state: never, context: NodeContext) => unknown) &
      NodeUpdateCheck<Impl["nodes"][K], FieldsOf<Sp, K, Impl["nodes"][K]>> &
      GotoCheck<"bindSpec", Impl["nodes"][K], SpecEnds<Sp, K>, K>;
  } & {
    readonly [K in Exclude<
      keyof Impl["nodes"],
      SpecNodes<Sp>
    >]: `bindSpec: ${Quoted<K>} is not a node of the spec; remove it or add it to the spec`;
  };
} & ([Sp["routes"][number]] extends [never]
  ? { readonly routers?: CheckedRouters<Sp, Impl> }
  : number extends Sp["routes"]["length"]
    ? // A spec typed with a list of routes, not a tuple (`compiled.spec`, a `GraphSpec`): whether it has
      // routes is known at run time only, where a missing router is reported.
      { readonly routers?: CheckedRouters<Sp, Impl> }
    : { readonly routers: CheckedRouters<Sp, Impl> });

type CheckedRouters<Sp extends BindableSpec, Impl extends Implementations> = {
  readonly [F in Sp["routes"][number]["from"]]: CheckedRouter<Sp, Impl, F>;
} & {
  readonly [F in Exclude<
    keyof NonNullable<Impl["routers"]>,
    Sp["routes"][number]["from"]
  >]: `bindSpec: ${Quoted<F>} has no route in the spec; remove its router`;
};

/** The ends the spec declares for node `K`. */
type SpecEnds<Sp extends BindableSpec, K> = Sp extends { readonly ends: readonly (infer X)[] }
  ? X extends { readonly from: K; readonly to: readonly (infer T extends string)[] }
    ? T
    : never
  : never;

/**
 * The destinations a node's returned Command names (`string` for a Command typed without them; none
 * for a result typed `any`, which is not checked, as elsewhere).
 */
type GotoOf<F> = F extends (...args: never[]) => infer R
  ? Awaited<R> extends infer C
    ? 0 extends 1 & C
      ? never
      : C extends Command<unknown, object, infer G>
        ? G
        : never
    : never
  : never;

/**
 * A node whose Command goes only to its ends (`Ends`): those of the `defineGraph` declaration, or of
 * the spec `bindSpec` binds. Checked apart from the node's function type, so the error is a sentence.
 */
type GotoCheck<Api extends "defineGraph" | "bindSpec", F, Ends, K> = [Exclude<GotoOf<F>, Ends | KeepsGotoLiterals>] extends [never]
  ? unknown
  : Demand<`${Api}: node ${Quoted<K>} returns a Command with goto ${Quoted<Exclude<GotoOf<F>, Ends | KeepsGotoLiterals>>}, which ${Api extends "bindSpec" ? `its ends in the spec do not list; add it to the spec's ends for ${Quoted<K>}` : `its ends do not list; add it to ends: { ${K & string}: [...] }`}`>;

/** A node whose update keys are all fields (any node when the fields are not known, or its result is typed `any`). */
type NodeUpdateCheck<F, Fields> = string extends Fields
  ? unknown
  : [UpdateOf<F>] extends [never]
    ? unknown // it returns nothing, or only Commands (whose update the Command's own type checks)
    : 0 extends 1 & UpdateOf<F>
      ? unknown
      : Demand<
          Exclude<keyof UpdateOf<F>, Fields> extends infer X
            ? X extends string
              ? `bindSpec: ${Quoted<X>} is not a field of the state; return only declared fields`
              : never
            : never
        >;

/**
 * The fields node `K` may write: the spec's `fields` when it lists them, else the keys of the state the
 * node reads. A `Send` target reads its own input, not the state, so without `fields` it is not checked.
 */
type FieldsOf<Sp extends BindableSpec, K, F> = Sp extends { readonly fields: readonly (infer X extends string)[] }
  ? X
  : K extends SendTargets<Sp>
    ? string
    : F extends (state: infer S, ...rest: never[]) => unknown
      ? unknown extends S
        ? string
        : keyof S & string
      : string;
type SendTargets<Sp extends BindableSpec> = RoutePaths<Extract<Sp["routes"][number], { readonly sends: true }>>;

/** Each name the spec's edges, fan-outs, joins and routes use must be a node of the spec (or START, END). */
export type CheckedSpec<Sp> = Sp extends BindableSpec
  ? [UndeclaredInSpec<Sp>] extends [never]
    ? unknown
    : Demand<
        UndeclaredInSpec<Sp> extends infer X
          ? X extends string
            ? `bindSpec: the spec names ${Quoted<X>}, which is not one of its nodes; add it to nodes, or fix the name`
            : never
          : never
      >
  : unknown;

type SpecNames<Sp extends BindableSpec> =
  | Sp["edges"][number]["from"]
  | Sp["edges"][number]["to"]
  | (Sp extends { readonly fanOuts: readonly (infer F extends { readonly from: string; readonly to: readonly string[] })[] }
      ? F["from"] | F["to"][number]
      : never)
  | (Sp extends { readonly joins: readonly (infer J extends { readonly from: readonly string[]; readonly to: string })[] }
      ? J["from"][number] | J["to"]
      : never)
  | Sp["routes"][number]["from"]
  | RoutePaths<Sp["routes"][number]>
  | (Sp extends { readonly ends: readonly (infer X extends { readonly from: string; readonly to: readonly string[] })[] }
      ? X["from"] | X["to"][number]
      : never);
type RoutePaths<R> = R extends { readonly paths: infer P } ? P[keyof P] : never;
type UndeclaredInSpec<Sp extends BindableSpec> = string extends SpecNodes<Sp> ? never : Exclude<SpecNames<Sp>, SpecNodes<Sp> | Start | End>;

/** The state type of the implementations' nodes. */
export type StateOfImplementations<Impl extends Implementations> = Impl["nodes"][keyof Impl["nodes"]] extends (state: infer S) => unknown
  ? S extends object
    ? S
    : Record<string, unknown>
  : Record<string, unknown>;
