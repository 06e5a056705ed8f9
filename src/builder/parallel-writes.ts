/**
 * Parallel-write conflicts at the type level (issue 18 §3). Two nodes that the graph itself starts in
 * one superstep and that both surely write a field without a reducer fail the merge at run time
 * (`InvalidUpdateError`); the builder knows each node's update type, so it reports them when the edge
 * or route that starts them is declared, and `defineGraph` on its `edges` and `routes`, by the same
 * rule (written once, here). Only what is sure is reported: a field a node writes on some
 * paths only (a path that returns nothing writes no field surely; a Command, the fields its update was
 * given), the sources of a join (they may arrive in different supersteps), a subgraph's writes, a
 * field with a reducer and the builders whose reducers' fields are unknown stay silent, and the
 * run-time check remains.
 */
import type { Command, CommandMark, Send } from "../engine/index.js";
import type { Demand, IsUnion, Quoted } from "./messages.js";

/**
 * A builder's writes record: a union of `node\u0000field` strings (a union of strings, because a growing
 * intersection or a union of tuples cost the checker several times more), and `\u0000field` for each
 * field with a reducer ({@link ReducedFields}: no node has an empty name, so they never read as a
 * node's writes). Or `unknown`, for a builder that cannot tell which fields have a reducer
 * (`new StateGraph<S>({ reducers })`: TypeScript infers nothing from the options while `S` is given
 * explicitly) or whose type was written `StateGraph<S>`: it records no write, so no conflict is reported.
 */
export type Writes = `${string}\u0000${string}`;

/** The writes record a builder starts with when `Reduced` names the fields with a reducer (`new StateGraph<S, "events">({ reducers })`). */
export type ReducedFields<Reduced extends string> = `\u0000${Reduced}`;

/** The fields a writes record says have a reducer: their parallel writes merge, so they never conflict. */
type ReducedIn<W> = W extends `\u0000${infer Field}` ? Field : never;

/**
 * The keys every member of `U` has as required: the fields an update surely writes. A node returning
 * `cond ? { count: 1 } : {}` writes `count` on one path only, so not surely. (Not a mapped type over
 * `keyof U`: that would distribute over the union and keep a key required in one member.)
 */
export type SureKeys<U, K = keyof U> = K extends keyof U
  ? true extends (U extends unknown ? ({} extends Pick<U, K> ? true : false) : never)
    ? never
    : K
  : never;

/**
 * The state fields node function `F` surely writes: those every path's update has as required keys.
 * None for a compiled subgraph (its writes are not typed), and none for a node that may return nothing
 * (`if (…) return;`). A `Command` writes the required keys of the update it was given (its
 * `UpdateGiven`; none when that is not known, a Command whose type is written), never its own members
 * (`resume`, `goto`, `update` are no fields); a list of Commands writes no field surely.
 */
export type SureWrites<F, S> = F extends (...args: never[]) => infer Result
  ? SureKeys<PathUpdate<Awaited<Result>>> & keyof S & string
  : never;

/** What one path of a node's result writes: nothing for `void` or a list of Commands, a Command's given update, else the update itself. */
type PathUpdate<Result> = Result extends void | undefined | readonly CommandMark[]
  ? {}
  : Result extends CommandMark
    ? Result extends Command<unknown, object, string, PropertyKey, unknown, infer Update>
      ? unknown extends Update
        ? {}
        : Update
      : {}
    : Result;

/** The builder's writes record `W` with node `Name`'s sure writes added (when `W` tracks writes and it writes any). */
export type WithWrites<W, Name extends string, F, S> = unknown extends W
  ? W
  : [SureWrites<F, S>] extends [never]
    ? W
    : W | `${Name}\u0000${SureWrites<F, S>}`;

/**
 * The writes record of the nodes `Names` of a node table (`defineGraph`'s `nodes`), with the fields in
 * `Reduced` (those that have a reducer) as {@link ReducedFields}. Only the nodes a fan-out or a
 * list-form route starts are read, so a graph without them costs nothing here.
 */
export type TableWrites<Nodes, Names, S, Reduced = never> =
  | (Names extends keyof Nodes & string ? `${Names}\u0000${SureWrites<Nodes[Names], S>}` : never)
  | ReducedFields<Reduced & string>;

type WritesOf<W, Node> = W extends `${Node & string}\u0000${infer Field}` ? Field : never;

/**
 * Each ordered pair of `List` (a tuple) that `Together` allows, with the fields both write, as
 * `[x, y, field]`. Not a name paired with itself: a fan-out that lists a target twice is reported as
 * such ({@link NoRepeatedTargets} in `types.ts`), not again as a node conflicting with itself.
 */
type ConflictingPairs<List, W, Together = unknown> = List extends readonly [infer X, ...infer Rest]
  ?
      | (Exclude<Rest[number], X> extends infer Y
          ? Y extends unknown
            ? [X, Y] extends Together
              ? Exclude<WritesOf<W, X> & WritesOf<W, Y>, ReducedIn<W>> extends infer Field
                ? Field extends string
                  ? readonly [X, Y, Field]
                  : never
                : never
              : never
            : never
          : never)
      | ConflictingPairs<Rest, W, Together>
  : never;

type FixOf<Field> = `give ${Quoted<Field>} a reducer (reducers: { ${Field & string}: … }), or write it from one of them`;

/** A fan-out's conflicts, as messages (without the API's name): two of its targets (a tuple) that surely write one field without a reducer. */
export type FanOutConflicts<To, W> =
  ConflictingPairs<To, W> extends infer Pair
    ? Pair extends readonly [infer X, infer Y, infer Field]
      ? `${Quoted<X>} and ${Quoted<Y>} run in one superstep (a fan-out) and both write ${Quoted<Field>}, which has no reducer; ${FixOf<Field>}`
      : never
    : never;

/** A fan-out's targets (a tuple): two that surely write one field without a reducer are a {@link Demand} with the message. */
export type NoParallelConflicts<To, W> = unknown extends W
  ? unknown
  : To extends readonly unknown[]
    ? [FanOutConflicts<To, W>] extends [never]
      ? unknown
      : Demand<`addEdge: ${FanOutConflicts<To, W>}`>
    : unknown;

/** The node a router's choice starts: the name itself, or a `Send`'s target. */
type Started<Choice> = Choice extends Send<infer Target, unknown> ? Target : Choice;

/** The pairs `[x, y]` one list the router can return holds together (its element type names both, by name or `Send`). */
type StartedTogether<Out> = Out extends readonly (infer Choice)[] ? readonly [Started<Choice>, Started<Choice>] : never;

/**
 * A list-form route's conflicts, as the messages of its result: two destinations one list of the
 * router's can start together (a list `("b" | "c")[]` may hold both; `"b"[] | "c"[]` never does) that
 * both surely write a field without a reducer.
 */
export type RouteConflicts<From, Out, D, W> =
  | (ConflictingPairs<D, W, StartedTogether<Out>> extends infer Pair
      ? Pair extends readonly [infer X, infer Y, infer Field]
        ? `the router for ${Quoted<From>} can start ${Quoted<X>} and ${Quoted<Y>} in one superstep, and both write ${Quoted<Field>}, which has no reducer; ${FixOf<Field>}`
        : never
      : never)
  | RepeatedSendConflicts<From, Out, D, W>;

/**
 * The node a router surely means to `Send` to several times in one superstep: its return type is a
 * list of any length (not a tuple) of Sends to that one node, as `docs.map((d) => new Send("x", d))`
 * is. Each Send runs the node once, and their updates merge in one superstep. Not a list that mixes
 * targets: `[new Send("a", s), new Send("b", s)]` is typed as a list of either, yet holds one of each.
 */
type RepeatedSends<Out> = Out extends readonly (infer Choice)[]
  ? number extends Out["length"]
    ? [Choice] extends [Send<infer Target extends string, unknown>]
      ? IsUnion<Target> extends false
        ? Target
        : never
      : never
    : never
  : never;

/**
 * A list-form route's conflicts of one node with itself: a destination the router can Send to more
 * than once (a list of any length, such as `docs.map((d) => new Send("summarize", { d }))`) that
 * surely writes a field without a reducer. Silent for a tuple, whose Sends the compiler counts, and
 * for a node that writes only fields with a reducer (the map-reduce idiom).
 */
type RepeatedSendConflicts<From, Out, D, W> = D extends readonly unknown[]
  ? Extract<RepeatedSends<Out>, D[number]> extends infer X
    ? X extends string
      ? Exclude<WritesOf<W, X>, ReducedIn<W>> extends infer Field
        ? Field extends string
          ? `the router for ${Quoted<From>} can send ${Quoted<X>} more than once in one superstep (a list of Sends), and it writes ${Quoted<Field>}, which has no reducer; ${FixOf<Field>}`
          : never
        : never
      : never
    : never
  : never;
