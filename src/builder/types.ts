/**
 * The typed surface of the builder. The runtime class in `state-graph.ts` is loosely typed inside;
 * this file is where the compile-time checks live. Every check turns into a type whose text is the
 * error message a user reads.
 */
import type { CompiledGraph } from "../engine/index.js";
import type { Send } from "../engine/index.js";
import type { Reducer, StandardSchemaV1 } from "../engine/index.js";
import type { End, Start } from "../spec.js";
import type { Checkpointer } from "../engine/index.js";
import type { NodeContext, RouterContext } from "../engine/index.js";
import type { ParentState } from "../engine/index.js";
import type { CacheStore, NodeFailure, NodeOptions, RetryPolicy } from "../engine/index.js";
import type { Command } from "../engine/index.js";
import type { DeclaredInterrupt, GraphMigration } from "../engine/index.js";
import type { CommandMark, NotACommand } from "../engine/index.js";
import type { FieldList } from "./field-list.js";
import type { NoParallelConflicts, ReducedFields, RouteConflicts, WithWrites } from "./parallel-writes.js";
import type {
  Demand,
  IsBlank,
  IsUnion,
  Quoted,
  Repeated,
  TypeLevelError,
  NeedsResultChecks,
  NestedKeyCheck,
  ResultChecks,
  Whitespace,
} from "./messages.js";
import type { TopologyRules } from "./topology.js";
import type { BoundEdge, LoopsBoundedEdge, UnboundedCycleProblems } from "./cycles.js";
import type { AnyName, SourceCheck, TargetCheck } from "./declared-names.js";
import type { InputOf, OwnInputNodes, PayloadMismatch } from "./node-inputs.js";
import type { GotoProblems, GotoRecords } from "./command-gotos.js";
import type { UpdateSlips } from "./nested-keys.js";

export type { InputOf, OwnInputNodes } from "./node-inputs.js";

export type { MaxTypeLevelDepth } from "./reach.js";

/** A value or a Promise of it: nodes and routers may be async. */
export type Awaitable<T> = T | PromiseLike<T>;

/**
 * The reducers a state may declare: at most one per field, typed by the field. An optional field's
 * reducer is typed by the value it holds once set (the engine calls it only with values).
 */
export type ReducersFor<S> = { readonly [K in keyof S]?: Reducer<Exclude<S[K], undefined>> };

/**
 * Per-field Standard Schemas a state may declare: at most one per field, each with an output the field
 * can hold (a zod, valibot or arktype schema; `Ticket.shape` of a `z.object` fits).
 */
export type FieldSchemasFor<S> = { readonly [K in keyof S]?: StandardSchemaV1<unknown, S[K]> };

/** Options of `new StateGraph<S>(options)`. */
export interface StateGraphOptions<S> {
  /** Field → reducer. A field with a reducer combines updates; every other field is replaced. */
  readonly reducers?: ReducersFor<S>;
  /**
   * Every state field, each once (checked at compile time: a list that leaves a field out does not
   * compile). Exporters that need all channels (LangGraph.js) read it; updates are then checked
   * against it at run time. Inputs stay partial.
   */
  readonly fields?: FieldList<S>;
  /**
   * Fields with a reducer whose parallel updates are meant to merge in declaration order (an event log
   * that `append`s): `compile()` does not warn `ORDER_DEPENDENT_MERGE` for them. The merge is
   * deterministic either way; this says the order is intended.
   */
  readonly orderedMerge?: readonly (keyof S & string)[];
  /**
   * Field → Standard Schema: each value an update writes to the field (a node's return, a `Command`'s
   * update, an `updateState` edit, an input) is validated on its own, before its reducer merges it;
   * a refusal is `INVALID_FIELD` (`INVALID_INPUT` for an input), naming the node and the field, and
   * commits nothing. For a field with a reducer it describes what the reducer takes (`append`: a list).
   * The value merged is the schema's output. Beside a whole-state schema, this checks each update
   * before the merge; the state schema checks the merged state after it.
   */
  readonly fieldSchemas?: FieldSchemasFor<S>;
  /**
   * `"bounded"`: every cycle must cross a node with a loop bound (`addNode(name, fn, { bound })`);
   * `compile()` reports each cycle that crosses none as `UNBOUNDED_CYCLE`. Without it such a cycle is a
   * warning (`compiled.warnings`), and only `recursionLimit` stops it.
   */
  readonly loops?: "bounded";
}

/**
 * Options of `compile()`; `N` is the declared node names, so interrupts name declared nodes only, and
 * `S` the state, so a migration's state and node map lead into this graph (`never`, the default, holds
 * migrations that change no state; `compile()` itself reads the graph's state).
 */
export interface CompileOptions<N extends string = string, S = never> {
  /**
   * `false` skips the type-level reachability search (for graphs too deep for it).
   * Run-time validation still checks the whole topology.
   */
  readonly typeLevelTopology?: boolean;
  /** A threaded run pauses, checkpoint saved, before any of these nodes starts; resuming continues. */
  readonly interruptBefore?: readonly N[];
  /** A threaded run pauses, checkpoint saved, after any of these nodes ran. */
  readonly interruptAfter?: readonly N[];
  /** The checkpointer of threaded runs (`invoke(input, { threadId })`) that pass none. */
  readonly checkpointer?: Checkpointer;
  /** The retry policy of every node that declares none. Default: no retry. */
  readonly retry?: RetryPolicy;
  /** The timeout (ms) of every node attempt that declares none. Default: none. */
  readonly timeout?: number;
  /**
   * The error handler of every node that declares none (LangGraph's `setNodeDefaults({ errorHandler })`):
   * runs once a node failed for good, instead of the run failing. Its `Command` may go to the failing
   * node's `ends` only (checked at run time: `UNDECLARED_GOTO`). See `NodeErrorHandler`.
   */
  // A method, so its parameters are read bivariantly: options typed `CompileOptions<N>` (state `never`) still pass.
  errorHandler?(state: S, failure: NodeFailure<N>): NodeResult<S & object, N | End | KeepsGotoLiterals>;
  /** Where cached node updates live. Default: in memory, per compiled graph. */
  readonly cacheStore?: CacheStore;
  /**
   * The graph's version, a whole number from 1 (default 1): every checkpoint records it with the spec's
   * hash. Raise it when you change a graph whose threads may be paused; see docs/persistence.md,
   * "Changing a graph with threads in flight".
   */
  readonly version?: number;
  /**
   * How checkpoints of older versions continue on this one: one `migrateFrom(oldSpec, { from, state,
   * nodes })` per older version still accepted. Each node map's values must be nodes of this graph and
   * each state migration must return this graph's state (compile errors otherwise).
   */
  readonly migrations?: readonly GraphMigration<S, N>[];
  /**
   * The in-node interrupts the graph's nodes raise (`defineInterrupt` values). Declaring them makes
   * their answer schemas reachable from the graph (`declaredInterruptsOf`): `exploreGraph` draws each
   * one's answers from its schema when you pass none.
   */
  readonly interrupts?: readonly DeclaredInterrupt[];
}

/** A fixed or routed edge recorded at the type level. */
export type TypedEdge = readonly [from: string, to: string];

/**
 * Whether `T` is `any`: helpers typed `StateGraph<S, any, any, any>` skip the type-level checks. Not
 * the usual `0 extends 1 & T` (for a `T` constrained to `string`, `1 & T` reduces to `never` early),
 * and not distributive over `T`: `N` is a union of every node name, and each builder call checks it,
 * so a distributive check would cost O(nodes) per call and O(nodes²) per graph.
 */
export type IsAny<T> = unknown extends T ? ([keyof T] extends [never] ? false : true) : false;

/** The node names a compiled graph keeps: a builder typed `StateGraph<S, any, any, any>` compiles to any names (`string`). */
export type CompiledNames<N extends string> = IsAny<N> extends true ? string : N;

/** The members of a list, or the value itself. */
type Members<T> = T extends readonly (infer X)[] ? X : T;

/**
 * The check of a node name, `addNode`'s first parameter beside the name itself (`Name & NoInfer<…>`):
 * `unknown` for a name that can be declared, else a {@link Demand} with the reason. Not a type that is
 * the name or the message (`Name extends … ? message : Name`): the compiler infers `Name` through
 * every branch of such a parameter type and relates the argument to a union, about a fifth of the
 * cost of a plain `addNode` call (`npm run bench:types`); here `Name` is inferred from itself, and the
 * check is read once, after inference. The tests run in one pass over `Name` (`Whole` keeps the
 * whole name for the union test), and a name that does not start with whitespace skips the blank
 * test: the common name costs a few comparisons.
 */
export type NodeNameCheck<Name extends string, N extends string, Whole extends string = Name> =
  // `IsLiteral` inlined (a name typed string, or a pattern, makes an index signature, which `{}`
  // satisfies): one alias fewer to resolve on every addNode.
  {} extends Record<Name, 1>
    ? IsAny<N> extends true
      ? unknown
      : Demand<"addNode: the node name must be a string literal; a name typed string (or a pattern) would switch off every later check of node names">
    : Name extends unknown
      ? [Whole] extends [Name]
        ? Name extends Start | End
          ? Demand<`addNode: ${Quoted<Name>} is reserved for ${Name extends Start ? "START" : "END"}; choose another node name`>
          : Name extends "" | `${Whitespace}${string}`
            ? IsBlank<Name> extends true
              ? Demand<
                  Name extends "" ? "addNode: a node name cannot be empty" : "addNode: a node name cannot be blank; give it a visible name"
                >
              : NotDeclared<Name, N>
            : NotDeclared<Name, N>
        : IsAny<N> extends true
          ? unknown // `StateGraph<S, any, …>` opted out of the name checks (a loop over names declares one per pass)
          : Demand<'addNode: declare one node per call; a name typed as a union of names (flag ? "x" : "y") declares neither'>
      : never;

/**
 * `unknown` unless `N` already has `Name`, else the duplicate's {@link Demand}. Two indexes by the
 * outcome, as in {@link SourceCheck}, not `[Name] extends [N] ? … : unknown`: in a helper generic over
 * the builder (`<N extends string, …>(b: StateGraph<S, N, …>) => b.addNode(…)`) that conditional stays
 * unresolved, and an unresolved parameter type accepts no argument. While `N` is a type parameter the
 * first index reads as its constraint (`unknown`): the helper type-checks, and the duplicate is
 * reported where the helper is called with a concrete builder (its result's next `addNode`, or
 * `compile()`'s run-time validation for a name the helper itself declares twice).
 */
type NotDeclared<Name extends string, N extends string> =
  | { readonly fresh: unknown }[Exclude<"fresh", Duplicate<Name, N>>]
  | {
      readonly fresh: never;
      readonly taken: Demand<`addNode: node ${Quoted<Name>} is already declared; choose another name`>;
    }[Duplicate<Name, N>];

/**
 * The keys of {@link NotDeclared}'s objects that `Name` selects: none when `N` lacks it, else `"fresh"`
 * (which the first object then lacks) and `"taken"`. None for a builder typed
 * `StateGraph<S, any, any, any>`, which opted out of name checks. A conditional on the whole `N`, not
 * `Extract<Name, N>`: while `Name` is being inferred the compiler reads this type's constraint, and it
 * simplifies an `Extract` by intersecting `Name` with every declared name, O(nodes) per call.
 */
type Duplicate<Name extends string, N extends string> = IsAny<N> extends true ? never : [Name] extends [N] ? "fresh" | "taken" : never;

/**
 * An update is not a Promise: without this, an async node's `Promise<{ count: "x" }>` was assignable
 * to the update `{ count?: number }` (it has no property in common with it, and the compiler skips
 * that "weak type" check inside the intersections that node parameters are), so its result was never
 * checked. With it, a Promise is checked as the Promise of an update, as an async node's result.
 */
interface NotAPromise {
  readonly then?: never;
}

/**
 * An update is not a list: without this, an array was assignable to the update (a "weak type", as a
 * Promise was), so a node's list of Commands whose goto leaves its ends passed as a partial state. A
 * list is checked as a list of Commands, and any other list is reported by name (`NodeResultCheck`).
 */
interface NotAList {
  readonly [Symbol.iterator]?: never;
}

/**
 * A `Command` a node may return: an update of the state, and a `goto` that names only `G`, the node's
 * declared `ends` (none declared: a Command with an update only). `resume` is not a node's to give:
 * its type is `unknown` here, so that a node annotated `Promise<Command<unknown, S, …>>` (the
 * LangGraph.js how-to's signature) compiles, and a resume the node does give is refused by
 * `ResumeCheck` (messages.ts) once its type is inferred.
 */
export type NodeCommand<S extends object, G extends string> = Command<unknown, S, G>;

/**
 * A destination no goto can name (a branded string), beside a node's ends in the Command type its
 * function is read against. A node function that needs no contextual parameter type is inferred
 * before the ends are (they come after it), while they still read as `never`; a goto written
 * `s.urgent ? END : "a"` (not a const context, unlike a bare literal) was then widened to `string`
 * and failed its own check. A string literal in the contextual type keeps the literals, and the
 * brand keeps every goto outside the ends rejected. A Command without goto infers it as this type
 * (it has no other source), which no check reads as a destination.
 */
export type KeepsGotoLiterals = "" & { readonly "typed-state-graph: a goto names a node of ends": never };

/**
 * What `addNode` takes: a node function or a compiled graph of the same state. One signature over
 * both, not two overloads: with overloads TypeScript first checks an inline node against the
 * compiled-graph overload, which gives it no contextual return type, and keeps its widened result
 * (`"running"` becomes `string`) for the function overload too. `Check` is what the node's inferred
 * type `F` must also be ({@link NodeCheck}): first in the intersection, so that its message
 * is the one reported, and second among the parameters, so that the error's first line shows it too.
 * The function's contextual type, {@link NodeResult}, is built from the state and the ends only, not
 * from the node's own result: the same instance serves every node, and the compiler infers nothing
 * from it (inferring an update type from each result, by reverse-mapping it, was about a fifth of
 * `addNode`'s cost, `npm run bench:types`). `G` is the node's ends; {@link KeepsGotoLiterals} is added
 * here, not by the caller, so that an error's text shows the ends as they are (`never` for none).
 * {@link ParentState} is there for
 * `subgraph(child, { input: (s) => … })`: a nested generic call cannot infer its types from a
 * parameter typed by `I`, which is not known yet, so the brand hands it the state.
 */
export type NodeArgument<S extends object, Check, I, F = unknown, G extends string = never> =
  | (Check & CompiledGraph<S>)
  | ParentState<S>
  | (Check & F & ((state: I, context: NodeContext) => NodeResult<S, G | KeepsGotoLiterals>));

/**
 * What a node function may return, as the contextual type `addNode` gives it: a partial state, a
 * `Command` that goes to `G`, a list of such Commands (each checked as if returned alone: their
 * updates apply in order, their gotos are all taken), nothing, or a Promise of one. It depends on the
 * state and the ends only, so every node of a graph shares one instance; the keys of the result are
 * checked once it is inferred ({@link NodeCheck}), not by a type built from each result.
 */
export type NodeResult<S extends object, G extends string = never> =
  | NodeUpdate<S>
  | NodeCommand<S, G>
  | readonly NodeCommand<S, G>[]
  | void
  | Promise<NodeUpdate<S> | NodeCommand<S, G> | readonly NodeCommand<S, G>[] | void>;

/**
 * A node's update: a partial state, each value of its field's type (with `exactOptionalPropertyTypes`,
 * `undefined` only for an optional field). Annotate a node declared apart from the builder with it.
 *
 * @example
 * ```ts
 * const draft = (s: Brief): StateUpdate<Brief> => ({ draft: s.readings.join(", "), events: ["wrote draft"] });
 * ```
 */
export type StateUpdate<S> = { [K in keyof S]?: S[K] };

/**
 * A {@link StateUpdate} as a node's result is read against: neither a Promise ({@link NotAPromise}),
 * a Command ({@link NotACommand}) nor a list ({@link NotAList}). All its keys are optional, so without the two a Promise of a
 * wrong update, or a Command whose goto leaves its ends, would pass as a partial state. Its keys are
 * {@link NodeCheck}'s to check.
 */
type NodeUpdate<S> = ConstrainedUpdate<S> & NotAPromise & NotACommand & NotAList;

/**
 * {@link StateUpdate}, read through the constraint of a state that is a type parameter (a factory
 * generic over the state, `<T extends { draft: string }>() => new StateGraph<T>()…`). `Partial<T>`
 * accepts no written value (`T["draft"]` may be narrower than `string`), so every node that writes
 * would fail. An indexed access into a distributive conditional reads, while `S` is generic, as the
 * conditional at `S`'s constraint: the update is checked against `StateUpdate<{ draft: string }>`,
 * a typo and a value of another type still fail, and a concrete state resolves to `StateUpdate<S>`.
 */
type ConstrainedUpdate<S> = (S extends unknown ? { readonly update: StateUpdate<S> } : never)["update"];

/**
 * The checks of a node that read its type after inference: a compiled graph's state, a node
 * function's result. Behind `NoInfer`, and first in the intersections of {@link NodeArgument}, so the
 * compiler reports the message rather than its own reading of the mismatch (a graph's `invoke`
 * signatures, a number read against the partial state as `Number`'s methods). The function case
 * first: it is the common one, and comparing every node function with `CompiledGraph` cost about 16
 * instantiations a call (`npm run bench:types`, builder N=500: 491,911 → 483,909). A result whose
 * keys are all fields of the state ({@link NeedsResultChecks}) settles the function case in one
 * comparison.
 */
export type NodeCheck<F, Name extends string, S extends object> = (S extends unknown
  ? { readonly check: NodeCheckOf<F, Name, S> }
  : never)["check"];

/** {@link NodeCheck} of a state that is not a type parameter. */
type NodeCheckOf<F, Name extends string, S extends object> = F extends (...args: never[]) => infer R
  ? [NeedsResultChecks<R, S>] extends [never]
    ? [UpdateSlips<R, S>] extends [never]
      ? unknown
      : NestedKeyCheck<"addNode", Name, R, S>
    : ResultChecks<"addNode", Name, R, S> & NestedKeyCheck<"addNode", Name, Awaited<R>, S>
  : F extends CompiledGraph<object, string>
    ? [F] extends [CompiledGraph<S, string>]
      ? unknown
      : Demand<`addNode: node ${Quoted<Name>} is a graph compiled for another state; map between the states with subgraph(graph, { input: (s) => childInput, output: (c) => update })`>
    : unknown;

/** The edges a node's `ends` add (none without ends): the compiler's reachability search follows them. */
export type EndsEdges<Name extends string, Ends extends readonly string[]> = [Ends[number]] extends [never]
  ? never
  : readonly [Name, Ends[number]];

/**
 * The edge a node's loop bound adds (none without an exit): the run reaches the exit through the bound,
 * so the compiler's reachability search follows it, and `compile()` requires the exit to be declared.
 */
export type BoundExitEdge<Name extends string, Exit extends string> = [Exit] extends [never] ? never : readonly [Name, Exit];

/**
 * What `addConditionalEdges`' router may return: a route key (a path-map form), or a list of node
 * names and `Send`s (a destination-list form); which form is read from the third argument. END, a
 * literal, is in the union beside any string so that the router's literals are kept where they are
 * written in a returned list (a contextual type with a literal member keeps them). Not generic in the
 * node names: while the router is not yet read (it is inferred last, from its parameter's context),
 * the compiler checks the other arguments with this constraint as the router's type, and the checks
 * of a helper generic over the builder's nodes could not resolve it. A name that is not a node is
 * reported on the result ({@link RouteOutcome}).
 */
export type RouterOutput = End | AnyName | readonly (End | AnyName | Send)[];

/** The route keys (or node names) a router returns: the members of its list, `Send`s aside. */
type RouteKeys<Out> = Exclude<Out extends readonly (infer Choice)[] ? Choice : Out, Send<string, unknown>> & string;

/** Where a route may lead: a destination list's names, or a path map's values. */
type Destinations<M> = M extends readonly unknown[] ? M[number] : M[keyof M];

/**
 * The checks of `addConditionalEdges`' third argument, by its form: a destination list lists only
 * nodes the router leads to; a path map has exactly the router's keys, each leading to a declared
 * node that reads the state. A conditional on the argument's own type, never on the router's: it is
 * read once both are inferred. Not distributive (`[M]`): while the call is resolved, the compiler reads
 * a distributive conditional on `M` with `M`'s constraint, a list of every node name or a path map to
 * any of them, and checked each, O(nodes) per call (builder N=200: +30% checker calls).
 */
type DestinationChecks<M, Out, From, N extends string, S, I> = [M] extends [readonly unknown[]]
  ? ListChecks<M & readonly unknown[], Out, From, N>
  : // Not `PathMapKeys<…>` itself: a `Demand` of the messages, so the error's first line, which prints the parameter's type, shows them.
    (PathMapKeyProblems<M, RouteKeys<Out>, "addConditionalEdges"> extends infer Problems extends string
      ? [Problems] extends [never]
        ? unknown
        : Demand<Problems>
      : never) &
      ReadsTheState<M[keyof M], S, I, "addConditionalEdges"> &
      PathMapTargets<M, N>;

/**
 * A destination list's checks: each name the router leads to is a node (a route key there is the
 * usual slip: it needs a path map), else each listed destination is one the router leads to. Two
 * indexes by the outcome, as in {@link SourceCheck}, so that a helper generic over the builder's nodes,
 * where the outcome is deferred, still type-checks.
 */
export type ListChecks<M extends readonly unknown[], Out, From, N extends string> =
  | { readonly nodes: UnreturnedDestinations<M, Out> }[Exclude<"nodes", NotNodeProblem<RouteTargets<Out>, N, Out>>]
  | {
      readonly nodes: never;
      readonly notNodes: Demand<`addConditionalEdges: ${NotNodes<From, RouteTargets<Out>, N>}`>;
    }[NotNodeProblem<RouteTargets<Out>, N, Out>];

/** The keys of {@link ListChecks}' objects that the router's targets select: none while each is a node, and none before the router is read. */
type NotNodeProblem<Targets, N extends string, Out> = [RouterOutput] extends [Out]
  ? never
  : string extends RouteKeys<Out>
    ? never // a router typed string: its result says so
    : IsAny<N> extends true
      ? never
      : Targets extends N | End
        ? never
        : "nodes" | "notNodes";

/**
 * The problems of an `addConditionalEdges` call that show in its result (its next call), as message
 * text; `never` when it is sound. One signature for both forms, so a problem in either is reported
 * as its own message, not as TS2769 ("No overload matches this call") explaining the other form.
 */
type RouteOutcome<M, Out, From, N extends string, S, I, W> =
  string extends RouteKeys<Out>
    ? [RouterOutput] extends [Out]
      ? never // the call failed and `Out` was never inferred: its argument's error is the one to read, not a follow-on
      : `the router for ${Quoted<From>} returns string; annotate its return type with a union of route keys, e.g. (s): "accept" | "revise" => …`
    : M extends readonly unknown[]
      ? [NotNodeProblem<RouteTargets<Out>, N, Out>] extends [never]
        ? ListRouteProblems<From, Out, M[number], S, I> | RouteConflicts<From, Out, M, W>
        : never // the destination list's own check reports it (ListChecks); a follow-on error here would only repeat it
      : [SentTargets<Out>] extends [never]
        ? [WideKeys<M>] extends [never]
          ? never
          : WidePathMapMessage<`the path map for ${Quoted<From>}`>
        : `the router for ${Quoted<From>} returns a Send, which a path map cannot route; list the destinations instead: addConditionalEdges(${Quoted<From>}, router, [${Quoted<SentTargets<Out>>}, …])`;

/**
 * A list-form router's names and `Send` targets that are not nodes: most often route keys, which need
 * a path map; else a node not declared yet.
 */
type NotNodes<From, Names, N extends string> =
  IsAny<N> extends true
    ? never
    : Exclude<Names, N | End> extends infer X extends string
      ? X extends unknown
        ? `the router for ${Quoted<From>} leads to ${Quoted<X>}, which is not a node; with a destination list a router returns node names or Sends: declare ${Quoted<X>} with addNode, or map route keys to nodes with a path map { ${X}: node }`
        : never
      : never;

/** A router of state `S` returning `Out`: it may read its {@link RouterContext} as a second parameter. */
export type RouterOf<S, Out> = (state: S, context: RouterContext) => Awaitable<Out>;

/**
 * A path map: route keys mapped to declared nodes or END. Which keys is {@link PathMapKeys}' check,
 * not this type's: a constraint `{ [P in K]: … }` made the compiler report a key the router never
 * returns as an excess property, with a "Did you mean" that renamed the path map's key after the
 * router's spelling, also when the misspelling was the router's.
 */
export type PathMapOf<N extends string> = { readonly [key: string]: N | End };

/**
 * The path map's destinations, each a declared node (in `N`) or END: `unknown` when they are, else
 * the message for each that is not, as for an edge's destination (`'"c"' is not assignable to
 * '"__end__" | …'` gave no reason). One comparison of all the destinations at once while they are sound.
 */
export type PathMapTargets<P, N extends string> = [P[keyof P]] extends [N | End]
  ? unknown
  : TargetCheck<P[keyof P], N, unknown, "addConditionalEdges">;

/**
 * The path map's keys checked against the router's, as {@link Demand}s: a key the router can return
 * that the map lacks, a key it never returns, the empty key. A key of each kind at once is most often
 * one misspelling, and the message says which key the router may have meant. `${K}` and
 * `${keyof P}`: a string enum's members read as their values, the keys a path map is written with
 * (also as computed keys, `{ [Route.Go]: … }`). A router typed `string` is
 * reported on the result instead (its keys cannot be checked).
 */
export type PathMapKeys<P, K extends string, Api extends string = "addConditionalEdges"> = Demand<PathMapKeyProblems<P, K, Api>>;

/** The messages of {@link PathMapKeys}, each a problem of the path map's keys; `never` when they match the router's. */
type PathMapKeyProblems<P, K extends string, Api extends string> =
  | (string extends K ? never : KeyMismatches<Exclude<`${K}`, `${keyof P & string}`>, Exclude<keyof P, `${K}`> & string, Api>)
  | ("" extends keyof P ? `${Api}: a route key cannot be empty; name the route` : never);

/** The messages for the router's keys the path map lacks (`Missing`) and its keys the router never returns (`Unreturned`). */
type KeyMismatches<Missing extends string, Unreturned extends string, Api extends string> = [Unreturned] extends [never]
  ? Missing extends unknown
    ? `${Api}: the router can return ${Quoted<Missing>}, which the path map lacks; add it to the path map with its destination, or do not return it`
    : never
  : [Missing] extends [never]
    ? Unreturned extends unknown
      ? `${Api}: the router never returns ${Quoted<Unreturned>}; remove the key from the path map, or return it from the router`
      : never
    : Missing extends unknown
      ? `${Api}: the router can return ${Quoted<Missing>}, which the path map lacks; did the router mean ${Quoted<Unreturned>}, a key of the path map it never returns? Fix the router's return, or add ${Quoted<Missing>} to the path map`
      : never;

/**
 * The path-map keys whose value type is a union of destinations (`Record<"go" | "stop", "b" | END>`):
 * such a type does not say which node each key leads to, so the reachability search could only trust
 * every member, an unused one included, and pass a node that is never reached.
 */
export type WideKeys<P> = { [K in keyof P]-?: IsUnion<P[K]> extends false ? never : K }[keyof P];

/** The message for a path map whose type does not tie each key to one destination. */
export type WidePathMapMessage<Subject extends string> =
  `${Subject} types a key as a union of destinations, so the compiler cannot tell where it leads; write the map inline, or check it with satisfies, not a type annotation`;

/**
 * The checks of an edge's target beyond its names: a fan-out's list (each target once, their parallel
 * writes) and, for every target, that it reads the state. The list checks only for a list, so a
 * plain edge builds none of their types.
 */
type EdgeTargetChecks<To, S, I, W> = To extends readonly unknown[]
  ? NoRepeatedTargets<To> & ReadsTheState<To, S, I, "addEdge"> & NoParallelConflicts<To, W>
  : ReadsTheState<To, S, I, "addEdge">;

/** A fan-out lists each target once. */
export type NoRepeatedTargets<To> = To extends readonly unknown[]
  ? [Repeated<To>] extends [never]
    ? unknown
    : Demand<`addEdge: the fan-out lists ${Quoted<Repeated<To>>} more than once; list each target once`>
  : unknown;

/**
 * The builder's record of node input types: `I` gains `{ name: input }` for a node whose parameter is
 * typed as something other than the state (unannotated nodes read the state and are not recorded).
 */
export type WithInput<I extends object, S, Name extends string, In> = [In] extends [S]
  ? [S] extends [In]
    ? I
    : I & { readonly [K in Name]: In }
  : I & { readonly [K in Name]: In };

/** One choice of a list-form router: a node name or a `Send`. */
type ChoiceOf<Out> = Out extends readonly (infer C)[] ? C : Out;
/** The nodes a list-form router names without a `Send`. */
type NamedTargets<Out> = Exclude<ChoiceOf<Out>, Send<string, unknown>>;
/** The nodes a list-form router sends to. */
type SentTargets<Out> = ChoiceOf<Out> extends infer C ? (C extends Send<infer T, unknown> ? T : never) : never;
/** Every node a list-form router can lead to. */
export type RouteTargets<Out> = NamedTargets<Out> | SentTargets<Out>;
/** The payloads the router sends to `T`. */
type PayloadsTo<Out, T> = ChoiceOf<Out> extends infer C ? (C extends Send<infer To, infer P> ? (To extends T ? P : never) : never) : never;

/*
 * Each check below distributes over the listed destinations, never over the router's type: a
 * conditional type on `Out` in the destinations' type would fix `Out` before the router is read.
 */

/**
 * The listed destinations the router never leads to, as {@link Demand}s. Only for a written list (a
 * tuple): while the call is resolved, the compiler also reads this type with `D` as its constraint,
 * a list of every node name, and checking each of those would cost O(nodes) per call.
 */
type UnreturnedDestinations<D extends readonly unknown[], Out> = number extends D["length"]
  ? unknown
  : Demand<UnreturnedMessages<D[number], Out>>;

/** A message for each listed destination the router never leads to. */
type UnreturnedMessages<Listed, Out> =
  Listed extends RouteTargets<Out>
    ? never
    : `addConditionalEdges: the router never returns or sends to ${Quoted<Listed>}; remove it from the destination list, or return it`;

/**
 * The problems of a list-form route that show in its result (its next call): a node the router can
 * return that the list lacks, a node that takes its own input named without a `Send`, a `Send` whose
 * payload is not its target's input (the state, for a node that reads the state). They are in the
 * result, not in the destinations' type, because a check there that reads the router's type would fix
 * that type before the router is read.
 */
export type ListRouteProblems<From, Out, Listed, S, I> =
  | (Exclude<RouteTargets<Out>, Listed> extends infer X extends string
      ? X extends unknown
        ? `the router for ${Quoted<From>} can return ${Quoted<X>}, which the destination list lacks; add it`
        : never
      : never)
  | (Extract<NamedTargets<Out>, OwnInputNodes<S, I>> extends infer X extends string
      ? X extends unknown
        ? `the router for ${Quoted<From>} names ${Quoted<X>}, which takes its own input, not the state; send it with new Send(${Quoted<X>}, input)`
        : never
      : never)
  | (SentTargets<Out> extends infer T extends string
      ? T extends unknown
        ? // A Command is a payload too (LangGraph.js's `new Send(node, new Command({ goto }))`): the node reads it and may return it.
          [Exclude<PayloadsTo<Out, T>, CommandMark>] extends [InputOf<T, S, I>]
          ? never
          : PayloadMismatch<`the router for ${Quoted<From>} sends ${Quoted<T>} a payload`, PayloadsTo<Out, T>, InputOf<T, S, I>>
        : never
      : never);

/**
 * Destinations reached by an edge (a node or a list of them) or a path-map route get the state, so none may be a node that takes
 * its own input: such a node is reached with `Send`. `unknown` (no check, and nothing added to the
 * parameter's type in messages) while every node reads the state.
 */
export type ReadsTheState<To, S, I, Api extends string> =
  | { readonly reads: unknown }[Exclude<"reads", OwnInputProblem<S, I>>]
  | { readonly reads: never; readonly own: Demand<StateReaderMessages<Members<To>, S, I, Api>> }[OwnInputProblem<S, I>];

type OwnInputProblem<S, I> = [OwnInputNodes<S, I>] extends [never] ? never : "reads" | "own";

/** For each of `To` that takes its own input (in `I`), the message: it would get the state. */
export type StateReaderMessages<To, S, I, Api extends string> = To extends OwnInputNodes<S, I> & string
  ? `${Api}: node ${Quoted<To>} takes its own input, not the state; reach it with Send from a router, or type its parameter as the state`
  : never;

/** The type a builder call returns when its route cannot be checked. */
export interface RouteError<Message extends string> extends TypeLevelError<Message> {}

/** The type `compile()` requires of `this` when the topology is wrong: its text is the message. */
export interface CompileError<Message extends string> extends TypeLevelError<Message> {}

// ---- topology (the rules are in topology.ts, the search in reach.ts) ----------------------------

/** The sources of the edges: every node with a rule, and every node that declared `ends`. */
type EdgeSources<E> = E extends readonly [infer A extends string, unknown] ? A : never;

/** A node's `ends` may name nodes declared after it; each must be declared by `compile()`. */
type UnknownEnds<N extends string, E> = E extends readonly [infer A extends string, infer B]
  ? B extends N | End
    ? never
    : `node ${Quoted<A>} lists ${Quoted<B>} in its ends, which is not a node; declare it with addNode, or remove it from ends`
  : never;

/** Each problem `compile()` reports at the type level, as message text. */
export type TopologyProblems<N extends string, E, R extends string> =
  | TopologyRules<N, E, R | EdgeSources<E>, "builder">
  | UnknownEnds<N, E>
  | UnboundedCycleProblems<N, E>;

/** `this` for `compile()`: the builder itself when sound, else a {@link CompileError} that reads as the message. */
export type CompileThis<Self, N extends string, E, R extends string, S = unknown, I = {}> = true extends IsAny<N> | IsAny<E> | IsAny<R>
  ? Self // `StateGraph<S, any, any, any>`: nothing to check at the type level; run-time validation still runs
  : [Exclude<EdgeEnds<E>, N | Start | End>] extends [never]
    ? CompileProblems<Self, N, E, R, S, I>
    : // An edge names an undeclared node: its call already reports it, and the topology it leaves (an
      // unreachable node, one without an exit) would be a follow-on error printed first, at the chain's
      // start. A node's `ends` are checked here only, so their undeclared names are still reported.
      [UnknownEnds<N, E>] extends [never]
      ? Self
      : TypeLevelError<UnknownEnds<N, E> extends infer P extends string ? (P extends string ? `compile(): ${P}` : never) : never>;

/** Every name an edge recorded at the type level names, at either end. */
type EdgeEnds<E> = E extends readonly [infer From, infer To] ? From | To : never;

/** `this` for `compile()` once every edge names declared nodes: the builder when sound, else the problems. */
type CompileProblems<Self, N extends string, E, R extends string, S, I> =
  | TopologyProblems<N, E, R>
  | GotoProblems<E, S, I> extends infer Problems extends string
  ? [Problems] extends [never]
    ? Self
    : // New member strings make a new union without the alias, so the error shows the messages themselves.
      TypeLevelError<Problems extends string ? `compile(): ${Problems}` : never>
  : never;

// ---- the builder's public type ------------------------------------------------------------------

/**
 * A typed state-graph builder. Each call returns a new builder type that accumulates node names
 * (`N`), edges (`E`) and the sources that have an outgoing rule (`R`), so keep the chain (or keep
 * each result in its own `const`: a `let` reassigned its own call's result does not compile). Nodes
 * are declared before the edges that name them: that is what lets the compiler check every name.
 *
 * @example
 * ```ts
 * const graph = stateGraph<{ n: number; log: string[] }>()({ reducers: { log: append } })
 *   .addNode("inc", (s) => ({ n: s.n + 1, log: ["inc"] }))
 *   .addEdge(START, "inc")
 *   .addConditionalEdges("inc", (s) => (s.n < 3 ? "again" : "done"), { again: "inc", done: END })
 *   .compile();
 * ```
 *
 * The variance of each type parameter is declared (`in out`, `out`), not measured: measuring it
 * compares two instantiations of this whole interface per parameter, every method's checks included,
 * which cost about 10k instantiations and a third of the check time of a 10-node graph
 * (`npm run bench:types`). The annotations are what the compiler measured: `S`, `N`, `E`, `R` and `I`
 * invariant; `W` measured independent, declared covariant, since a builder that records its writes
 * may stand where one that records none (`unknown`) is expected, as a helper's parameter typed
 * `StateGraph<S, N, E, R>` does.
 */
export interface StateGraph<
  in out S extends object,
  in out N extends string = never,
  in out E = never,
  in out R extends string = never,
  in out I extends object = {},
  out W = unknown,
  in out Input extends object = S,
> {
  /**
   * Type-level only (a builder has no such property at run time): the step of the chain this builder
   * type is, its nodes and the sources with a rule. A variable assigned its own call's result
   * (`let g = …; g = g.addNode(…)`) then fails on this property first, so the error reads as its
   * name. A variable cannot follow the chain: its type is fixed where it is declared, and each call
   * returns a new builder type. Only read when two builder types are compared structurally (the
   * compiler relates two steps by their type arguments, and explains a failure with the members).
   * Functions of `N` and `R`, so that the property fails both ways, as the invariant parameters do: a
   * new builder (`never`) held as `StateGraph<S, any, any, any>` fails here too, and reads the same.
   */
  readonly "StateGraph: a builder variable holds one step of the chain, since each call returns a new builder type; chain the calls, or keep each step in its own const": {
    readonly nodes: (nodes: N) => N;
    readonly rules: (rules: R) => R;
  };

  /**
   * Declares a node: a function from (a copy of) the state to a partial update, or a compiled graph
   * with the same state (a subgraph). A node that `Send` targets may take the Send's input type instead.
   *
   * @example
   * ```ts
   * builder.addNode("draft", async (s) => ({ draft: render(s.readings), events: ["wrote draft"] }));
   * builder.addNode("summarize", (input: { doc: string }) => ({ summaries: [input.doc.slice(0, 80)] }));
   * ```
   */
  addNode<
    const Name extends string,
    F,
    In = S,
    const Ends extends readonly string[] = readonly [],
    const Exit extends string = never,
    Bound = never,
  >(
    name: Name & NoInfer<NodeNameCheck<Name, N>>,
    node: NodeArgument<S, NoInfer<NodeCheck<F, Name, S>>, In, F, Ends[number]>,
    // `Bound`: whether a bound is given at all (one without an exit infers no `Exit`), for the cycle check of `loops: "bounded"`.
    options?: NodeOptions<In, Ends, Exit, NodeResult<S, Ends[number] | KeepsGotoLiterals>> & { readonly bound?: Bound },
  ): StateGraph<
    S,
    N | Name,
    E | EndsEdges<Name, Ends> | BoundExitEdge<Name, Exit> | BoundEdge<Name, Bound, Exit> | GotoRecords<Name, F, Ends>,
    R,
    WithInput<I, S, Name, NoInfer<In>>,
    WithWrites<W, Name, F, S>,
    Input
  >;

  /**
   * Declares the one fixed rule of `from`: after it runs, `to` runs. A list on the right is a fan-out
   * (all run together in the next superstep); a list on the left is a join (the target waits for all).
   *
   * @example
   * ```ts
   * builder.addEdge(START, "plan").addEdge("plan", ["web", "papers"]).addEdge(["web", "papers"], "synthesize");
   * ```
   */
  addEdge<
    const From extends N | Start | AnyName | readonly (N | AnyName)[],
    const To extends N | End | AnyName | readonly (N | End | AnyName)[],
  >(
    from: From & NoInfer<SourceCheck<From, N, R, "addEdge">>,
    to: To & NoInfer<TargetCheck<To, N, EdgeTargetChecks<To, S, I, W>>>,
  ): [From, To] extends [readonly string[], readonly string[]]
    ? RouteError<"addEdge: a join leads to one node; join into one node, then fan out from it">
    : StateGraph<S, N, E | readonly [Members<From>, Members<To>], R | Members<From>, I, W, Input>;

  /**
   * Declares the conditional edge of `from`: `router` returns a key of `pathMap` (or several), which names the next node.
   * With a list of node names instead of a path map, the router returns node names, several at once, or `Send`s.
   * Every key the router can return must be in the path map, and every path-map key must be returnable.
   *
   * @example
   * ```ts
   * builder.addConditionalEdges("check", (s) => (s.review?.passed ? "accept" : "revise"), {
   *   accept: "publish",
   *   revise: "revise_draft",
   * });
   * ```
   */
  addConditionalEdges<
    const From extends N | Start | AnyName,
    Out extends RouterOutput,
    // Not `readonly (N | End)[] | PathMapOf<N | AnyName>`: a constraint of the node names, a union of
    // a list and a map, made the compiler build unions of every node name while it typed the argument
    // (builder N=200: 10.67 M → 9.69 M checker calls, getTypeId 599 k → 224 k). The checks of the
    // argument (DestinationChecks) and of the result name what is not a node.
    const M extends PathMapOf<string> | readonly string[],
  >(
    from: From & NoInfer<SourceCheck<From, N, R, "addConditionalEdges">>,
    router: RouterOf<S, Out>,
    pathMap: NoInfer<DestinationChecks<M, Out, From, N, S, I>> & M,
  ): RouteOutcome<M, Out, From, N, S, I, W> extends infer Problem extends string
    ? [Problem] extends [never]
      ? StateGraph<S, N, E | readonly [From, Destinations<M>], R | From, I, W, Input>
      : RouteError<Problem>
    : never;

  /**
   * Validates the graph and returns a frozen, runnable {@link CompiledGraph}. At the type level it is an
   * error when a node has no exit, is unreachable from START, or cannot reach END.
   *
   * @example
   * ```ts
   * const graph = builder.compile();
   * const hugeGraph = hugeBuilder.compile({ typeLevelTopology: false }); // run-time validation only
   * const reviewed = builder.compile({ interruptBefore: ["publish"] }); // pauses a threaded run before publish
   * ```
   */
  compile(options: CompileOptions<N, S> & { readonly typeLevelTopology: false }): CompiledGraph<S, CompiledNames<N>, Input>;
  compile(
    this: CompileThis<StateGraph<S, N, E, R, I, W, Input>, N, E, R, S, I>,
    options?: CompileOptions<N, S>,
  ): CompiledGraph<S, CompiledNames<N>, Input>;

  /** The node names declared so far (a copy). */
  readonly nodes: readonly string[];
}

/**
 * `new StateGraph<S>(options)`. The builder reports parallel writes of a field without a reducer at
 * compile time when it knows which fields have one:
 * - without options (`new StateGraph<S>()`): none has;
 * - with the fields that have one named as the second type argument
 *   (`new StateGraph<S, "events">({ reducers: { events: append } })`), which the options must match:
 *   a reducer for each of those fields, and for no other (so the type cannot claim a field has no
 *   reducer when it has one, which would be a false error);
 * - with options alone (`new StateGraph<S>({ reducers })`) it cannot know: TypeScript infers nothing
 *   from an argument while `S` is given explicitly. It records nothing and leaves those conflicts to
 *   the run-time check. Declare such a graph with `stateGraph<S>()({ reducers })`, which infers them.
 *
 * (The signatures differ in arity, or in their number of type arguments, so a bad option is reported
 * against one signature alone.)
 *
 * @example
 * ```ts
 * interface S { count: number; events: string[] }
 * const plain = new StateGraph<S>(); // no reducers
 * const reduced = stateGraph<S>()({ reducers: { events: append }, orderedMerge: ["events"] });
 * ```
 */
export interface StateGraphConstructor {
  new <S extends object>(): StateGraph<S, never, never, never, {}, never>;
  new <S extends object, Reduced extends keyof S & string>(
    options: ReducedStateGraphOptions<S, Reduced>,
  ): StateGraph<S, never, never, never, {}, ReducedFields<Reduced>>;
  new <S extends object>(options: StateGraphOptions<S>): StateGraph<S>;
}

/**
 * The options of `new StateGraph<S, Reduced>(…)`: a reducer for each field of `Reduced` and for no other
 * field, and `orderedMerge` among those fields.
 */
export interface ReducedStateGraphOptions<S, Reduced extends keyof S & string>
  extends Omit<StateGraphOptions<S>, "reducers" | "orderedMerge"> {
  /** Field → reducer, for exactly the fields the second type argument names. */
  readonly reducers: { readonly [K in Reduced]-?: Reducer<Exclude<S[K], undefined>> } & {
    readonly [K in Exclude<
      keyof S,
      Reduced
    >]?: `new StateGraph: ${Quoted<K>} has a reducer, so name it in the second type argument (new StateGraph<S, … | ${Quoted<K>}>), or remove its reducer`;
  };
  /** As in {@link StateGraphOptions}: fields with a reducer whose parallel updates merge in declaration order on purpose. */
  readonly orderedMerge?: readonly Reduced[];
}

/**
 * What `stateGraph<S>()` returns: the function that takes the graph's options and starts its builder.
 * Apart from `S` because TypeScript infers no type argument of a call that is given some: here `S` is
 * given to the first call, and the second infers `Reducers` from `reducers`, so the builder knows which
 * fields have a reducer and reports a parallel write of any other field at compile time.
 */
export type StateGraphFactory<S extends object, Input extends object = S> = <
  const Reducers extends ConstrainedReducers<S> = {},
  const Loops extends "bounded" | undefined = undefined,
>(
  options?: NoInfer<ReducerFieldsCheck<Reducers, S>> & StateGraphDeclaration<S, Reducers, Loops>,
) => StateGraph<S, never, Loops extends "bounded" ? LoopsBoundedEdge : never, never, {}, ReducedFields<keyof Reducers & string>, Input>;

/**
 * {@link ReducersFor}, read through the constraint of a state that is a type parameter (a factory
 * generic over the state), as {@link ConstrainedUpdate} reads an update: `append` is a reducer of the
 * constraint's `messages: Message[]`, where `ReducersFor<T>` of a generic `T` accepts no reducer.
 */
type ConstrainedReducers<S> = (S extends unknown ? { readonly reducers: ReducersFor<S> } : never)["reducers"];

/** The options of `stateGraph<S>()(options)`: {@link StateGraphOptions}, with the reducers' fields inferred. */
export interface StateGraphDeclaration<S, Reducers, Loops extends "bounded" | undefined = "bounded" | undefined> {
  /** Field → reducer. A field with a reducer combines updates; every other field is replaced. */
  readonly reducers?: Reducers;
  /** As in {@link StateGraphOptions}: every state field, each once. */
  readonly fields?: FieldList<S>;
  /** As in {@link StateGraphOptions}: fields with a reducer whose parallel updates merge in declaration order on purpose. */
  readonly orderedMerge?: readonly NoInfer<keyof Reducers & keyof S & string>[];
  /** As in {@link StateGraphOptions}: each field's updates validated on their own by its Standard Schema. */
  readonly fieldSchemas?: FieldSchemasFor<S>;
  /**
   * As in {@link StateGraphOptions}: `"bounded"` makes every cycle that crosses no bounded node an
   * `UNBOUNDED_CYCLE` problem, and, where the builder's types see the cycle (its edges, routes, `ends`
   * and bound exits), a compile error at `compile()`.
   */
  readonly loops?: Loops;
}

/**
 * The reducers' keys checked against the state's fields: `unknown` when each is a field, else a
 * {@link Demand} naming the keys that are not. TypeScript reports an unknown key of a fresh object
 * literal only when the literal has no field in common with the state's; this also catches a
 * misspelled key beside a valid one, and in a reducers object held in a variable.
 */
export type ReducerFieldsCheck<Reducers, S> = (S extends unknown ? { readonly check: ReducerFieldsCheckOf<Reducers, S> } : never)["check"];

/** {@link ReducerFieldsCheck} of a state that is not a type parameter (a generic state is read through its constraint). */
type ReducerFieldsCheckOf<Reducers, S> = [Exclude<keyof Reducers, keyof S>] extends [never]
  ? unknown
  : Demand<`stateGraph: reducers names ${Quoted<Exclude<keyof Reducers, keyof S> & string>}, which is not a field of the state; name only declared fields`>;
