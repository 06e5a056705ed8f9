/**
 * `route(router, pathMap)`: a conditional edge written as a value, for `defineGraph`. It keeps the
 * router's literal keys inferred and checks the path map against them, exactly like
 * `addConditionalEdges`. Destination names are checked by `defineGraph`, which knows the nodes.
 */
import { describeValue, quote } from "../_describe.js";
import type { RouterContext } from "../engine/index.js";
import { invalidArgument } from "../errors.js";
import type { Send } from "../engine/index.js";
import type { Awaitable, PathMapKeys, RouteError, RouterOf, WideKeys, WidePathMapMessage } from "./types.js";

type Quoted<X> = `"${X & string}"`;

/**
 * A conditional edge as a value: its router, its path map and whether it is a list (Send) form. A
 * list-form route also keeps what its router returns (`Out`: names and `Send`s, with their payloads)
 * and its destination list (`D`), so `defineGraph` checks each `Send` against its target's input and
 * the destinations that start together.
 */
export interface RouteDeclaration<
  S,
  P extends Readonly<Record<string, string>> = Readonly<Record<string, string>>,
  Out = unknown,
  D extends readonly string[] = readonly string[],
> {
  readonly router: (state: S, context: RouterContext) => Awaitable<Out>;
  readonly paths: P;
  readonly sends: boolean;
  /** Where the route may lead: a list-form route's destination list as written, or a path map's destinations. */
  readonly destinations: D;
}

/** What a router function returns, once awaited. */
type ReturnOf<F> = F extends (...args: never[]) => infer Out ? Awaited<Out> : never;

/**
 * Declares a conditional edge for `defineGraph`: the router returns a key of the path map (or several).
 * With a list of node names, the router returns node names, several at once, or `Send`s.
 *
 * @example
 * ```ts
 * defineGraph<Brief>()({
 *   nodes: { check, publish, revise },
 *   edges: [[START, "check"], ["publish", END], ["revise", "check"]],
 *   routes: { check: route((s: Brief) => (s.ok ? "accept" : "revise"), { accept: "publish", revise: "revise" }) },
 * });
 * ```
 */
export function route<S, K extends string, const D extends readonly K[], F = unknown>(
  router: F & RouterOf<S, K | readonly (K | Send<K>)[]>,
  destinations: D,
): [Exclude<K, D[number]>] extends [never]
  ? RouteDeclaration<S, { readonly [X in D[number]]: X }, ReturnOf<F>, D>
  : RouteError<`route: the router can return ${Quoted<Exclude<K, D[number]>>}, which the destination list lacks; add it`>;
export function route<S, K extends string, const P extends { readonly [key: string]: string }>(
  router: RouterOf<S, K | readonly K[]>,
  pathMap: P & PathMapKeys<P, K, "route">,
): string extends K
  ? RouteError<`route: the router returns string; annotate its return type with a union of route keys, e.g. (s): "accept" | "revise" => …`>
  : [WideKeys<P>] extends [never]
    ? RouteDeclaration<S, P>
    : RouteError<WidePathMapMessage<"route: the path map">>;
export function route(router: RouteDeclaration<never>["router"], paths: object): unknown {
  if (typeof router !== "function")
    throw invalidArgument(`route: the router must be a function (state) => routeKey; got ${describeValue(router)}.`);
  if (typeof paths !== "object" || paths === null) {
    throw invalidArgument(
      `route: the path map must be an object { routeKey: destination } or a list of node names; got ${describeValue(paths)}.`,
    );
  }
  if (Array.isArray(paths) && !Array.from(paths as readonly unknown[]).every((name) => typeof name === "string")) {
    throw invalidArgument(`route: the destination list must hold node names (strings); got ${quote(paths)}.`);
  }
  const declaration: RouteDeclaration<never> = Array.isArray(paths)
    ? {
        router,
        paths: Object.fromEntries(Array.from(paths as readonly string[], (name) => [name, name])),
        sends: true,
        destinations: [...(paths as readonly string[])],
      }
    : {
        router,
        paths: { ...(paths as Readonly<Record<string, string>>) },
        sends: false,
        destinations: [...new Set(Object.values(paths as Readonly<Record<string, string>>))],
      };
  return declaration;
}
