/**
 * The node names an edge or a route names, checked against the builder's declared nodes with a
 * message that says why a name is not one. The usual reason is a builder call whose result was
 * dropped (`b.addNode("intake", f); b.addEdge(START, "intake")`): each call returns a new builder
 * type, and `b`'s type is the one before `addNode`. Without these checks the compiler's own text is
 * `'"intake"' is not assignable to '"__end__" | …'`, which gives no reason.
 *
 * The checks cost nothing while every name is declared: the message is a property of an object
 * indexed by the outcome of one comparison (the one the parameter's constraint made before), so it
 * is computed only for a name that is not declared.
 */
import type { End, Start } from "../spec.js";
import type { Demand, IsLiteral, Quoted } from "./messages.js";

/**
 * Any string, in the constraint of an edge's or a route's names after the declared ones (which
 * editors still offer): an undeclared name then reaches {@link SourceCheck} or {@link TargetCheck}
 * and gets its message, instead of failing the constraint with `'"b"' is not assignable to
 * '"__end__" | "a" | …'`.
 */
export type AnyName = string & {};

/**
 * The check of an edge's or a route's source `From` (a node, START, or for an edge a join's list of
 * nodes): each name is declared (in `N`), and none has its rule yet (in `R`). `unknown` when that
 * holds, else a {@link Demand} of each problem.
 *
 * Two indexes by the outcome rather than a conditional. While `N` or `R` is a type parameter (a
 * helper generic over the builder) the outcome is deferred: `Exclude<"free", …>` then reads as its
 * constraint, `"free"`, so the first index is `unknown` and the call goes through (it is checked where
 * the helper's result is used), where an unresolved conditional would accept no argument. And the
 * messages are in properties of an object indexed by the outcome, so a call whose names are sound
 * never computes them.
 */
export type SourceCheck<From, N extends string, R extends string, Api extends string> =
  | { readonly free: unknown }[Exclude<"free", SourceProblem<From, N, R>>]
  | {
      readonly free: never;
      readonly taken: Demand<RuleTakenMessages<Extract<Members<From>, R>, Api>>;
      readonly undeclared: Demand<SourceProblems<From, N, Api>>;
    }[SourceProblem<From, N, R>];

/**
 * The keys of {@link SourceCheck}'s objects that `From` selects: none when its names are sound, else
 * `"free"` (which the first object then lacks) and the problem's key. Distributed over a union of
 * names, so that one undeclared member is enough.
 */
type SourceProblem<From, N extends string, R extends string> = From extends N | Start
  ? From extends R
    ? RuleTaken<R>
    : never
  : From extends readonly N[]
    ? [Extract<From[number], R>] extends [never]
      ? never
      : RuleTaken<R>
    : "free" | "undeclared";

/** A source already has its rule, unless `R` is `any` (`StateGraph<S, any, any, any>`): it matches every source, so it tells none has one. */
type RuleTaken<R> = unknown extends R ? never : "free" | "taken";

/** The message for each source `X` that already has its rule. */
type RuleTakenMessages<X, Api extends string> = X extends string
  ? `${Api}: ${Quoted<X>} already has its outgoing rule; each source has exactly one (one edge, fan-out, join or route): remove the extra rule, fan out with a list, or route with addConditionalEdges`
  : never;

/**
 * The check of an edge's destination `To` (a node, END, or a fan-out's list of them), or of a path
 * map's destinations (`Api` names the call): `Checks`, the destination's other checks, when each
 * name is declared (in `N`), else a {@link Demand} of each problem. Two indexes, as in {@link SourceCheck}.
 */
export type TargetCheck<To, N extends string, Checks, Api extends string = "addEdge"> =
  | { readonly declared: Checks }[Exclude<"declared", TargetProblem<To, N>>]
  | { readonly declared: never; readonly undeclared: Demand<TargetProblems<To, N, Api>> }[TargetProblem<To, N>];

/** The keys of {@link TargetCheck}'s objects that `To` selects: none when its names are sound, else `"declared"` and `"undeclared"`. */
type TargetProblem<To, N extends string> = To extends N | End | readonly (N | End)[] ? never : "declared" | "undeclared";

/** The members of a list, or the value itself. */
type Members<T> = T extends readonly (infer X)[] ? X : T;

/** Whether the name or list `T` names `X`: not merely a name typed `string`, which could be anything. */
type Mentions<T, X extends string> = string extends Members<T> ? false : X extends Members<T> ? true : false;

/** Why each name of the source `From` cannot be one. */
type SourceProblems<From, N extends string, Api extends string> =
  | (Mentions<From, End> extends true ? `${Api}: END has no outgoing edge, a run stops there; start from a node, or from START` : never)
  | (From extends readonly unknown[]
      ? Mentions<From, Start> extends true
        ? "addEdge: a join's sources are nodes; START leads to the first node alone: addEdge(START, <first node>)"
        : never
      : never)
  | NameProblems<Exclude<Members<From>, Start | End>, N, Api>;

/** Why each name of the destination `To` cannot be one. */
type TargetProblems<To, N extends string, Api extends string> =
  | (Mentions<To, Start> extends true ? `${Api}: no edge leads to START; lead to the first node itself` : never)
  | NameProblems<Exclude<Members<To>, Start | End>, N, Api>;

/** Why `X`, a name where a node of `N` is expected, is not one; `never` for each that is. */
type NameProblems<X, N extends string, Api extends string> = X extends N
  ? never
  : X extends string
    ? IsLiteral<X> extends false
      ? `${Api}: a node name typed string cannot be checked; pass a string literal, or a union of declared names`
      : `${Api}: ${Quoted<X>} is not a node of this builder; declare it with addNode first. If you did, that call's result was dropped: each call returns a new builder type, so chain the calls or keep each result`
    : never;
