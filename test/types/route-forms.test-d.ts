/**
 * `addConditionalEdges` has one signature for its two forms (issue 35 §3): the third argument, a path
 * map or a destination list, says which. A problem of either form is then its own message, never
 * TS2769 ("No overload matches this call") explaining the other form first.
 */
import { describe, expectTypeOf, it } from "vitest";
import type { Demand } from "../../src/builder/messages.js";
import type { ListChecks } from "../../src/builder/types.js";
import { END, Send, START, StateGraph, type RouteError } from "../../src/index.js";

interface S {
  count: number;
  docs: string[];
}
const two = new StateGraph<S>()
  .addNode("a", () => ({}))
  .addNode("b", () => ({}))
  .addEdge(START, "a");

describe("one signature for both route forms", () => {
  it("reads the form from the third argument", () => {
    const byMap = two.addConditionalEdges("a", (s) => (s.count > 1 ? "more" : "done"), { more: "b", done: END });
    const byList = two.addConditionalEdges("a", (s) => (s.count > 1 ? ["b"] : [END]), ["b", END]);
    const sends = two.addConditionalEdges("a", (s) => s.docs.map(() => new Send("b", s)), ["b"]);
    expectTypeOf(byMap.addEdge("b", END).compile).toBeFunction();
    expectTypeOf(byList.addEdge("b", END).compile).toBeFunction();
    expectTypeOf(sends.addEdge("b", END).compile).toBeFunction();
  });

  it("reports a route key returned with a destination list as a name that is not a node, and no follow-on error", () => {
    // @ts-expect-error - addConditionalEdges: the router for "a" leads to "more", which is not a node; with a destination list a router returns node names or Sends
    const keyed = two.addConditionalEdges("a", (s) => (s.count > 1 ? "more" : "b"), ["b"]);
    expectTypeOf(keyed.addEdge("b", END).compile).toBeFunction();
    expectTypeOf<
      ListChecks<readonly ["b"], "more" | "b", "a", "a" | "b">
    >().toEqualTypeOf<Demand<'addConditionalEdges: the router for "a" leads to "more", which is not a node; with a destination list a router returns node names or Sends: declare "more" with addNode, or map route keys to nodes with a path map { more: node }'>>();
  });

  it("reports a Send to an undeclared node as that name, not as the listed node it never reaches", () => {
    // @ts-expect-error - addConditionalEdges: the router for "a" leads to "ghost", which is not a node
    two.addConditionalEdges("a", (s) => s.docs.map((doc) => new Send("ghost", { doc })), ["b"]);
  });

  it("reports a Send with a path map", () => {
    const sent = two.addConditionalEdges("a", (s) => (s.count > 1 ? [new Send("b", s)] : ["done"]), { done: END });
    expectTypeOf(sent).toEqualTypeOf<
      RouteError<'the router for "a" returns a Send, which a path map cannot route; list the destinations instead: addConditionalEdges("a", router, ["b", …])'>
    >();
  });

  it("reports a router typed string in either form", () => {
    const wide = (s: S): string => (s.count > 1 ? "b" : END);
    const message =
      'the router for "a" returns string; annotate its return type with a union of route keys, e.g. (s): "accept" | "revise" => …' as const;
    expectTypeOf(two.addConditionalEdges("a", wide, { b: "b" })).toEqualTypeOf<RouteError<typeof message>>();
    expectTypeOf(two.addConditionalEdges("a", wide, ["b", END])).toEqualTypeOf<RouteError<typeof message>>();
  });

  it("names a missing route key in the argument's own error", () => {
    // @ts-expect-error - addConditionalEdges: the router can return "stop", which the path map lacks
    two.addConditionalEdges("a", (s) => (s.count > 1 ? "go" : "stop"), { go: "b" });
  });
});
