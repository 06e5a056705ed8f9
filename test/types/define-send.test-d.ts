/**
 * `defineGraph` nodes that take their own input (issue 18 §1): a `Send` target declared with its input
 * type compiles, each `Send` payload is checked against it, and a node that takes its own input is
 * reached only by `Send`, as in the builder.
 */
import { describe, expectTypeOf, it } from "vitest";
import type { CheckedRoutes } from "../../src/builder/define-types.js";
import type { TypeLevelError } from "../../src/builder/messages.js";
import { append, bindSpec, defineGraph, END, route, Send, START, type CompiledGraph, type RouteDeclaration } from "../../src/index.js";

interface S {
  count: number;
  sections: string[];
  summaries: string[];
}
const define = defineGraph<S>();
const worker = (input: { section: string }) => ({ summaries: [input.section.slice(0, 10)] });
const fanOut = route((s: S) => s.sections.map((section) => new Send("worker", { section })), ["worker"]);

describe("a defineGraph node that takes its own input", () => {
  it("compiles as a Send target, inline or named, next to nodes that read the state", () => {
    const graph = define({
      reducers: { summaries: append },
      nodes: {
        plan: (s) => ({ count: s.count + 1 }),
        worker: (input: { section: string }) => ({ summaries: [input.section] }),
      },
      edges: [
        [START, "plan"],
        ["worker", END],
      ],
      routes: { plan: fanOut },
    });
    expectTypeOf(graph).toEqualTypeOf<CompiledGraph<S, "plan" | "worker">>();
    const named = define({
      reducers: { summaries: append },
      nodes: { plan: async (s, context) => ({ count: s.count + context.attempt }), worker },
      edges: [
        [START, "plan"],
        ["worker", END],
      ],
      routes: { plan: fanOut },
      policies: { worker: { cache: { key: (input) => input.section } }, plan: { cache: { key: (s) => String(s.count) } } },
    });
    expectTypeOf(named).toEqualTypeOf<CompiledGraph<S, "plan" | "worker">>();
  });

  it("keeps the route's router type and destination list", () => {
    expectTypeOf(fanOut).toEqualTypeOf<
      RouteDeclaration<S, { readonly worker: "worker" }, Send<"worker", { section: string }>[], readonly ["worker"]>
    >();
  });

  it("accepts a node whose parameter the state satisfies on an edge: it reads the state", () => {
    const graph = define({
      nodes: { plan: () => ({}), narrow: (s: { count: number }) => ({ count: s.count + 1 }) },
      edges: [
        [START, "plan"],
        ["plan", "narrow"],
        ["narrow", END],
      ],
    });
    expectTypeOf(graph).toEqualTypeOf<CompiledGraph<S, "plan" | "narrow">>();
  });

  it("checks a node's update whatever its input", () => {
    define({
      reducers: { summaries: append },
      // @ts-expect-error - summaries is a string[]
      nodes: { plan: () => ({}), worker: (input: { section: string }) => ({ summaries: input.section }) },
      edges: [
        [START, "plan"],
        ["worker", END],
      ],
      routes: { plan: fanOut },
    });
  });
});

describe("many Sends to one node from a defineGraph route (issue 35 §2)", () => {
  it("are refused when the node writes a field without a reducer, accepted with one", () => {
    const many = route((s: S) => s.sections.map((section) => new Send("worker", { section })), ["worker"]);
    const declaration = { nodes: { plan: () => ({}), worker }, edges: [[START, "plan"], ["worker", END]] } as const;
    // @ts-expect-error - "worker" writes summaries, which has no reducer, once per Send
    define({ ...declaration, routes: { plan: many } });
    define({ ...declaration, reducers: { summaries: append }, routes: { plan: many } });
  });
});

describe("a Send from a defineGraph route", () => {
  const nodes = { plan: () => ({}), worker };
  const edges = [
    [START, "plan"],
    ["worker", END],
  ] as const;

  it("rejects a payload that is not the target's input", () => {
    define({
      nodes,
      edges,
      // @ts-expect-error - "worker" takes { section: string }
      routes: { plan: route((s: S) => s.sections.map((doc) => new Send("worker", { doc })), ["worker"]) },
    });
    define({
      nodes,
      edges,
      // @ts-expect-error - "plan" reads the state: a Send hands it the state
      routes: { plan: route((s: S) => s.sections.map((doc) => new Send("plan", { doc })), ["plan"]) },
    });
  });

  it("names the route and the target in the message", () => {
    const badPayload = route((s: S) => s.sections.map((doc) => new Send("worker", { doc })), ["worker"]);
    type Checked = CheckedRoutes<S, "plan" | "worker", { plan: typeof badPayload }, { worker: { section: string } }>;
    expectTypeOf<Checked["plan"]>().toExtend<
      TypeLevelError<'defineGraph: the router for "plan" sends "worker" a payload with "doc", which its input does not have'>
    >();
  });

  it("rejects a Send to an undeclared node", () => {
    define({
      nodes,
      edges,
      // @ts-expect-error - "ghost" is not a declared node
      routes: { plan: route((s: S) => s.sections.map((section) => new Send("ghost", { section })), ["ghost"]) },
    });
    // @ts-expect-error - the router sends to "ghost", which the destination list lacks
    route((s: S) => s.sections.map((section) => new Send("ghost", { section })), ["worker"]);
  });

  it("rejects a router that names the target without a Send", () => {
    define({
      nodes,
      edges,
      // @ts-expect-error - "worker" takes its own input: send it with new Send("worker", input)
      routes: { plan: route((s: S) => (s.count > 0 ? ["worker" as const] : []), ["worker"]) },
    });
  });
});

describe("a defineGraph node that takes its own input, reached with the state", () => {
  it("is rejected on an edge, a fan-out or a path-map route", () => {
    define({
      nodes: { plan: () => ({}), worker },
      // @ts-expect-error - an edge would hand "worker" the state
      edges: [
        [START, "plan"],
        ["plan", "worker"],
        ["worker", END],
      ],
    });
    define({
      nodes: { plan: () => ({}), worker },
      // @ts-expect-error - so would a fan-out from START
      edges: [
        [START, ["plan", "worker"]],
        [["plan", "worker"], END],
      ],
    });
    define({
      nodes: { plan: () => ({}), worker },
      edges: [
        [START, "plan"],
        ["worker", END],
      ],
      // @ts-expect-error - and a path-map route
      routes: { plan: route((s: S): "go" | "stop" => (s.count > 0 ? "go" : "stop"), { go: "worker", stop: END }) },
    });
  });
});

describe("a Send from a bindSpec router", () => {
  const spec = {
    nodes: ["plan", "worker"],
    edges: [
      { from: START, to: "plan" },
      { from: "worker", to: END },
    ],
    routes: [{ from: "plan", paths: { worker: "worker" }, sends: true }],
  } as const;
  const nodes = { plan: (s: S) => ({ count: s.count }), worker };

  it("accepts the target's input, and rejects another payload", () => {
    bindSpec(spec, { nodes, routers: { plan: (s: S) => s.sections.map((section) => new Send("worker", { section })) } });
    // @ts-expect-error - "worker" takes { section: string }
    bindSpec(spec, { nodes, routers: { plan: (s: S) => s.sections.map((doc) => new Send("worker", { doc })) } });
  });
});

