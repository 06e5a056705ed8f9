/**
 * The topology rules at the type level, written once for the chained builder (`compile()`) and
 * `defineGraph`: a START edge, an exit from every node, every node reachable from START, END
 * reachable from every node with an exit. The wording follows the run-time validation
 * (`validate/topology.ts`); only the fix names the API of each form.
 */
import type { End, Start } from "../spec.js";
import type { Quoted } from "./messages.js";
import type { MaxTypeLevelDepth, ReachBackward, ReachForward, TooDeep } from "./reach.js";

/** The form a graph is written in: the fixes name its API. */
export type GraphForm = "builder" | "defineGraph";

/** How each form adds a rule from `X`, an edge from START, or skips the search. */
interface Fixes<X extends string> {
  readonly builder: {
    readonly exit: `addEdge(${Quoted<X>}, <next node or END>) or addConditionalEdges(${Quoted<X>}, router, paths)`;
    readonly start: `addEdge(START, "<first node>")`;
    readonly skip: "call compile({ typeLevelTopology: false })";
  };
  readonly defineGraph: {
    readonly exit: `an edge [${Quoted<X>}, <next node or END>] or a route from ${Quoted<X>}`;
    readonly start: `[START, "<first node>"] to edges`;
    readonly skip: "pass { typeLevelTopology: false } to defineGraph";
  };
}
type Fix<Form extends GraphForm, Kind extends "exit" | "start" | "skip", X extends string = never> = Fixes<X>[Form][Kind];

/** The message for a graph without an edge from START. */
export type NoStartEdge<Form extends GraphForm> = `there is no edge from START; add ${Fix<Form, "start">}`;

/** The message for a graph deeper than the search reaches. */
export type TooDeepMessage<Form extends GraphForm> =
  `the graph is too deep for the type-level reachability search (more than ${MaxTypeLevelDepth} layers); ${Fix<Form, "skip">}: run-time validation still checks it`;

/**
 * Each topology problem of a graph with nodes `N`, edges `E` (`[from, to]` pairs) and rule sources
 * `R` (START included once it has an edge), as message text. A graph too deep for the search gets
 * the explicit {@link TooDeepMessage} instead of the reachability problems, never a silent pass.
 */
export type TopologyRules<N extends string, E, R extends string, Form extends GraphForm> =
  | (Start extends R ? never : NoStartEdge<Form>)
  | (Exclude<N, R> extends infer X extends string
      ? X extends unknown
        ? `node ${Quoted<X>} has no outgoing edge; add ${Fix<Form, "exit", X>}`
        : never
      : never)
  | ReachabilityRules<N, R, ReachForward<E, Start>, ReachBackward<E, End>, Form>;

/**
 * The reachability problems; the search's results are type parameters, so each search runs once.
 * `Extract<R, N>`, not `R & N`: an intersection of two unions of names is their cross product.
 */
type ReachabilityRules<N extends string, R extends string, Forward, Backward, Form extends GraphForm> = [TooDeep] extends [
  Forward | Backward,
]
  ? TooDeepMessage<Form>
  :
      | (Exclude<N, Forward> extends infer X extends string
          ? X extends unknown
            ? `node ${Quoted<X>} is not reachable from START; add an edge that leads to it, or remove it`
            : never
          : never)
      | (Exclude<Extract<R, N>, Backward> extends infer X extends string
          ? X extends unknown
            ? `node ${Quoted<X>} has no path to END, so a run that enters it can never finish (a closed cycle); add an exit toward END`
            : never
          : never);
