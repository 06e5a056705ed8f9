/**
 * Wrong code the compiler must reject (issue 18 §2): each case once compiled and failed, or did the
 * wrong thing, only at run time.
 */
import { describe, expectTypeOf, it } from "vitest";
import type { EveryStateField, FieldList } from "../../src/builder/field-list.js";
import type { ReadsTheState, RouteError } from "../../src/builder/types.js";
import type { Demand } from "../../src/builder/messages.js";
import type { OutputFieldsCheck } from "../../src/engine/subgraph.js";
import { append, bindSpec, defineGraph, END, route, Send, START, StateGraph, subgraph, type RouteDeclaration } from "../../src/index.js";

interface S {
  count: number;
  draft: string;
  events: string[];
  note?: string;
}

const base = new StateGraph<S>({ reducers: { events: append } });
const two = base.addNode("a", () => ({})).addNode("b", () => ({}));
declare const json: string;
declare const lookup: Record<string, { n: number } | undefined>;
declare const key: string;
declare const flag: boolean;
declare const computed: (keyof S & string)[];

describe("unknown fields with an any value", () => {
  it("rejects the key, whatever the value", () => {
    // @ts-expect-error - "draf" is not a field of the state
    base.addNode("x", () => ({ draf: JSON.parse(json) }));
    // @ts-expect-error - "draf" is not a field of the state (async)
    base.addNode("x", async () => ({ draft: "ok", draf: JSON.parse(json) as unknown }));
    base.addNode("x", () => ({ draft: JSON.parse(json) }));
  });
});

describe("keys that are not text, and results that are functions", () => {
  it("rejects a number or symbol key and an async node resolving to a function", () => {
    const sym = Symbol("s");
    // @ts-expect-error - 0 is not a field
    base.addNode("x", () => ({ count: 1, 0: "x" }));
    // @ts-expect-error - a symbol key is not a field
    base.addNode("x", () => ({ count: 1, [sym]: 2 }));
    // @ts-expect-error - a symbol key on one path
    base.addNode("x", () => (flag ? { count: 1 } : { [Symbol.iterator]: 1 }));
    // @ts-expect-error - 0 is not a field (defineGraph)
    defineGraph<S>()({ nodes: { a: () => ({ count: 1, 0: "x" }) }, edges: [[START, "a"], ["a", END]] });
    // @ts-expect-error - a function is not an update
    base.addNode("x", async () => () => 1);
  });
});

describe("undefined for a required field", () => {
  it("rejects undefined and values that may be undefined", () => {
    // @ts-expect-error - count is required: undefined would erase it
    base.addNode("x", () => ({ count: undefined }));
    // @ts-expect-error - the lookup may give undefined
    base.addNode("x", () => ({ count: lookup[key]?.n }));
    // @ts-expect-error - exactOptionalPropertyTypes: an optional field is left out, not set to undefined
    base.addNode("x", () => ({ note: undefined }));
    base.addNode("x", () => ({ count: lookup[key]?.n ?? 0, note: "n" }));
  });
});

describe("node names that switch later checks off", () => {
  it("rejects a name typed string, a union of names, and a blank name", () => {
    // @ts-expect-error - a name typed string cannot be checked
    base.addNode(key, () => ({}));
    // @ts-expect-error - a union of names declares neither
    base.addNode(flag ? "x" : "y", () => ({}));
    // @ts-expect-error - a blank name
    base.addNode("  ", () => ({}));
    // @ts-expect-error - a pattern is not a name
    base.addNode(`n${1 as number}`, () => ({}));
    base.addNode("x y", () => ({})).addNode(" x", () => ({}));
  });

  it("rejects an empty route key and a fan-out that names a target twice", () => {
    // @ts-expect-error - an empty route key
    two.addConditionalEdges("a", (s): "" | "go" => (s.count ? "" : "go"), { "": END, go: "b" });
    // @ts-expect-error - "b" twice
    two.addEdge("a", ["b", "b"]);
    two.addEdge("a", ["b", END]).addConditionalEdges("b", (s): "go" => (s.count ? "go" : "go"), { go: END });
  });
});

describe("reducers and subgraph mappings", () => {
  it("rejects a reducer for a field the state does not have", () => {
    // @ts-expect-error - "evnts" is not a field
    new StateGraph<S>({ reducers: { evnts: append } });
    const reducers = { evnts: append };
    // @ts-expect-error - "evnts" is not a field (from a variable)
    new StateGraph<S>({ reducers });
  });

  it("rejects an unknown key in a subgraph's output", () => {
    const child = new StateGraph<{ text: string }>().addNode("t", () => ({})).addEdge(START, "t").addEdge("t", END).compile();
    // @ts-expect-error - "drafts" is not a field of the parent
    base.addNode("child", subgraph(child, { input: (s) => ({ text: s.draft }), output: (c) => ({ drafts: c.text }) }));
    // @ts-expect-error - "drafts" beside a valid key (issue 35 §2)
    base.addNode("child", subgraph(child, { input: (s) => ({ text: s.draft }), output: (c) => ({ count: 1, drafts: c.text }) }));
    const named = (c: { text: string }) => ({ draft: c.text, drafts: [c.text] });
    // @ts-expect-error - an output declared apart, with a key the parent lacks
    base.addNode("child", subgraph(child, { input: (s) => ({ text: s.draft }), output: named }));
    expectTypeOf<OutputFieldsCheck<{ draft: string; drafts: string[] }, S>>().toEqualTypeOf<{
      readonly 'subgraph: output returns "drafts", which is not a field of the parent\'s state; return only the parent\'s fields': never;
    }>();
  });

  it("accepts an output of the parent's fields, inline, declared apart or typed Partial", () => {
    const child = new StateGraph<{ text: string }>().addNode("t", () => ({})).addEdge(START, "t").addEdge("t", END).compile();
    const named = (c: { text: string }) => ({ draft: c.text, events: [c.text] });
    const partial = (c: { text: string }): Partial<S> => ({ draft: c.text });
    base.addNode("child", subgraph(child, { input: (s) => ({ text: s.draft }), output: (c) => ({ draft: c.text }) }));
    base.addNode("child", subgraph(child, { input: (s) => ({ text: s.draft }), output: named }));
    base.addNode("child", subgraph(child, { input: (s) => ({ text: s.draft }), output: partial, maxSteps: 3 }));
    base.addNode("child", subgraph(new StateGraph<S>().addNode("t", () => ({})).addEdge(START, "t").addEdge("t", END).compile()));
  });
});

describe("defineGraph checks what the builder checks", () => {
  it("rejects interrupts at undeclared nodes and nodes returning primitives", () => {
    const define = defineGraph<S>();
    // @ts-expect-error - "publsh" is not a node
    define({ nodes: { a: () => ({}) }, edges: [[START, "a"], ["a", END]] }, { interruptBefore: ["publsh"] });
    define({ nodes: { a: () => ({}) }, edges: [[START, "a"], ["a", END]] }, { interruptBefore: ["a"], interruptAfter: ["a"] });
    // @ts-expect-error - a node returns an update object, not a string
    define({ nodes: { a: () => "done" }, edges: [[START, "a"], ["a", END]] });
    // @ts-expect-error - nor a number (async)
    define({ nodes: { a: async () => 1 }, edges: [[START, "a"], ["a", END]] });
  });
});

describe("bindSpec of an as-const spec", () => {
  it("rejects an edge to an undeclared node and an update with an unknown key", () => {
    const spec = { nodes: ["a"], edges: [{ from: START, to: "a" }, { from: "a", to: "ghost" }], routes: [] } as const;
    // @ts-expect-error - "ghost" is not a node of the spec
    bindSpec(spec, { nodes: { a: (s: S) => ({ count: s.count }) } });
    const sound = { nodes: ["a"], edges: [{ from: START, to: "a" }, { from: "a", to: END }], routes: [], fields: ["count", "draft", "events"] } as const;
    // @ts-expect-error - "cont" is not a field of the state
    bindSpec(sound, { nodes: { a: (s: S) => ({ cont: s.count }) } });
    const noFields = { nodes: ["a"], edges: [{ from: START, to: "a" }, { from: "a", to: END }], routes: [] } as const;
    // @ts-expect-error - "cont" is not a field of the state the node reads
    bindSpec(noFields, { nodes: { a: (s: S) => ({ cont: s.count }) } });
    bindSpec(sound, { nodes: { a: (s: S) => ({ count: s.count + 1 }) } });
    bindSpec(noFields, { nodes: { a: (s: S) => ({ count: s.count + 1 }) } });
  });
});

describe("the fields list (issue 17 §7)", () => {
  it("rejects a list that leaves a field out, or names a field the state lacks", () => {
    // @ts-expect-error - "note" is left out
    new StateGraph<S>({ fields: ["count", "draft", "events"] });
    // @ts-expect-error - "nots" is not a field
    new StateGraph<S>({ fields: ["count", "draft", "events", "nots"] });
    const short = ["count", "draft", "events"] as const;
    // @ts-expect-error - a constant list one field short
    new StateGraph<S>({ fields: [...short] });
    // @ts-expect-error - a list computed at run time cannot be checked: write it out
    new StateGraph<S>({ fields: computed });
    // @ts-expect-error - defineGraph checks it the same way
    defineGraph<S>()({ fields: ["count"], nodes: { a: () => ({}) }, edges: [[START, "a"], ["a", END]] });
    expectTypeOf<FieldList<S>>().toEqualTypeOf<EveryStateField<"count" | "draft" | "events" | "note", 4>>();
  });

  it("accepts every field in any order, a constant list, and any names for an open state", () => {
    new StateGraph<S>({ fields: ["note", "events", "draft", "count"] });
    const all = ["count", "draft", "events", "note"] as const;
    new StateGraph<S>({ reducers: { events: append }, fields: [...all] });
    new StateGraph<S>({ fields: all });
    new StateGraph<Record<string, unknown>>({ fields: ["anything", "else"] });
    defineGraph<S>()({ fields: all, nodes: { a: () => ({}) }, edges: [[START, "a"], ["a", END]] });
    expectTypeOf<FieldList<Record<string, unknown>>>().toEqualTypeOf<readonly string[]>();
  });
});

describe("a node's parameter type against the state (issue 18 §2)", () => {
  interface Other {
    title: string;
  }
  const withOther = base.addNode("w", (o: Other) => ({ draft: o.title })).addNode("plan", () => ({}));

  it("rejects an edge or a path-map route to a node that does not read the state", () => {
    // @ts-expect-error - "w" takes Other: an edge would hand it the state
    withOther.addEdge(START, "w");
    // @ts-expect-error - nor a fan-out
    withOther.addEdge("plan", ["w", END]);
    // @ts-expect-error - nor a path-map route
    withOther.addConditionalEdges("plan", (s): "go" | "stop" => (s.count ? "go" : "stop"), { go: "w", stop: END });
    // A list-form route's result is the message (its next call fails): a router that names "w" without a Send
    expectTypeOf(withOther.addConditionalEdges("plan", (s) => (s.count ? ["w" as const] : []), ["w"])).toEqualTypeOf<
      RouteError<'the router for "plan" names "w", which takes its own input, not the state; send it with new Send("w", input)'>
    >();
  });

  it("rejects a Send whose payload is not the target's input", () => {
    // "w" takes { title: string }
    expectTypeOf(withOther.addConditionalEdges("plan", (s) => s.events.map((doc) => new Send("w", { doc })), ["w"])).toEqualTypeOf<
      RouteError<'the router for "plan" sends "w" a payload with "doc", which its input does not have'>
    >();
    // The message names the field (issue 35 §3): one the input requires and the payload lacks, or a value of another type
    expectTypeOf(withOther.addConditionalEdges("plan", (s) => s.events.map(() => new Send("w", {})), ["w"])).toEqualTypeOf<
      RouteError<'the router for "plan" sends "w" a payload without "title", which its input requires'>
    >();
    expectTypeOf(withOther.addConditionalEdges("plan", (s) => s.events.map(() => new Send("w", { title: 1 })), ["w"])).toEqualTypeOf<
      RouteError<`the router for "plan" sends "w" a payload that is not its input (its parameter type, or the state for a node that reads the state): a value's type differs`>
    >();
    // a node that reads the state takes the state from a Send
    const wrong = withOther.addConditionalEdges("plan", (s) => s.events.map((doc) => new Send("plan", { doc })), ["plan"]);
    // @ts-expect-error - the result is a RouteError, not a builder
    wrong.addEdge("w", END);
    expectTypeOf<ReadsTheState<"w", S, { w: Other }, "addEdge">>().toEqualTypeOf<
      Demand<'addEdge: node "w" takes its own input, not the state; reach it with Send from a router, or type its parameter as the state'>
    >();
  });

  it("accepts a Send of the target's input, and nodes whose parameter the state satisfies", () => {
    withOther
      .addEdge(START, "plan")
      .addConditionalEdges("plan", (s) => s.events.map((title) => new Send("w", { title })), ["w"])
      .addEdge("w", END)
      .compile();
    base
      .addNode("narrow", (s: { count: number }) => ({ count: s.count + 1 }))
      .addNode("plan", () => ({}))
      .addEdge(START, "plan")
      .addConditionalEdges("plan", (s) => [new Send("narrow", s)], ["narrow"])
      .addEdge("narrow", END)
      .compile();
  });
});

describe("a path map typed wider than its values (issue 18 §2)", () => {
  type Key = "go" | "stop";
  const router = (s: S): Key => (s.count ? "go" : "stop");
  const three = two.addNode("c", () => ({}));
  const wideMessage =
    'types a key as a union of destinations, so the compiler cannot tell where it leads; write the map inline, or check it with satisfies, not a type annotation';

  it("rejects a map whose type does not tie each key to one destination", () => {
    // "c" is in the annotation, never in the map: trusting the type would call it reachable
    const wide: Record<Key, "b" | "c" | typeof END> = { go: "b", stop: END };
    expectTypeOf(three.addConditionalEdges("a", router, wide)).toEqualTypeOf<RouteError<`the path map for "a" ${typeof wideMessage}`>>();
    const routed = three.addConditionalEdges("a", router, wide);
    // @ts-expect-error - the result is a RouteError, not a builder
    routed.addEdge("b", END);
    expectTypeOf(route(router, wide)).toEqualTypeOf<RouteError<`route: the path map ${typeof wideMessage}`>>();
  });

  it("accepts a map written inline, checked with satisfies, or typed one destination per key", () => {
    const checked = { go: "b", stop: END } satisfies Record<Key, "b" | "c" | typeof END>;
    const tied: { readonly go: "b"; readonly stop: typeof END } = { go: "b", stop: END };
    for (const paths of [checked, tied]) {
      const built = three.addEdge(START, "a").addConditionalEdges("a", router, paths).addEdge("b", END);
      // the map's type says where each key leads, so compile() sees that "c" is never reached
      // @ts-expect-error - "c" is not reachable from START (and has no exit)
      built.compile();
    }
    two.addEdge(START, "a").addConditionalEdges("a", router, { go: "b", stop: END }).addEdge("b", END).compile();
    expectTypeOf(route(router, checked)).toEqualTypeOf<RouteDeclaration<S, { go: "b"; stop: typeof END }>>();
  });
});
