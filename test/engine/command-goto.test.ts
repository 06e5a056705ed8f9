/**
 * A node that returns `new Command({ update, goto })`, with LangGraph's semantics (a goto adds
 * destinations to the next superstep; the node's static edge or route still applies), on `invoke`,
 * `stream`, threads (a crash between a task and its superstep's commit keeps the goto) and the refusals.
 */
import { describe, expect, it } from "vitest";
import {
  append,
  Command,
  END,
  GraphExecutionError,
  GraphValidationError,
  InvalidUpdateError,
  Send,
  START,
  StateGraph,
} from "../../src/index.js";
import { MemoryCheckpointer } from "../../src/persistence/index.js";

interface Ticket {
  urgent: boolean;
  log: string[];
}

/** LangGraph's edgeless shape: triage has no edge, only ends; its Command decides where the run goes. */
function triageGraph() {
  return new StateGraph<Ticket>({ reducers: { log: append } })
    .addNode("triage", (s) => new Command({ update: { log: ["triage"] }, goto: s.urgent ? "page" : "queue" }), { ends: ["page", "queue"] })
    .addNode("page", () => ({ log: ["page"] }))
    .addNode("queue", () => ({ log: ["queue"] }))
    .addEdge(START, "triage")
    .addEdge("page", END)
    .addEdge("queue", END)
    .compile();
}

describe("a node that returns a Command", () => {
  it("merges its update and runs its goto next, for a node whose only rule is its ends", async () => {
    const graph = triageGraph();
    const urgent = await graph.invoke({ urgent: true, log: [] });
    expect(urgent.trace).toEqual(["triage", "page"]);
    expect(urgent.state.log).toEqual(["triage", "page"]);
    const calm = await graph.invoke({ urgent: false, log: [] });
    expect(calm.trace).toEqual(["triage", "queue"]);
  });

  it("records the goto on the step and in the routes, and keeps the reserved key out of the update", async () => {
    const { steps, routes } = await triageGraph().invoke({ urgent: true, log: [] });
    expect(steps[0]?.update).toEqual({ log: ["triage"] });
    expect(steps[0]?.goto).toEqual(["page"]);
    expect(steps[1]?.goto).toBeUndefined();
    expect(routes).toEqual([{ from: "triage", key: "page", to: "page", goto: true }]);
  });

  it("adds its goto to the node's static edge (LangGraph: a Command does not cancel static edges)", async () => {
    const graph = new StateGraph<Ticket>({ reducers: { log: append } })
      .addNode("a", () => new Command({ update: { log: ["a"] }, goto: "c" }), { ends: ["c"] })
      .addNode("b", () => ({ log: ["b"] }))
      .addNode("c", () => ({ log: ["c"] }))
      .addEdge(START, "a")
      .addEdge("a", "b")
      .addEdge("b", END)
      .addEdge("c", END)
      .compile();
    const result = await graph.invoke({ urgent: false, log: [] });
    // b and c run together in the second superstep, merged in declaration order.
    expect(result.trace).toEqual(["a", "b", "c"]);
    expect(result.state.log).toEqual(["a", "b", "c"]);
  });

  it("adds its goto to the node's route, and a destination named twice runs once", async () => {
    const graph = new StateGraph<Ticket>({ reducers: { log: append } })
      .addNode("a", () => new Command({ goto: ["b", "c"] }), { ends: ["b", "c"] })
      .addNode("b", () => ({ log: ["b"] }))
      .addNode("c", () => ({ log: ["c"] }))
      .addEdge(START, "a")
      .addConditionalEdges("a", (): "next" => "next", { next: "b" })
      .addEdge("b", END)
      .addEdge("c", END)
      .compile();
    const result = await graph.invoke({ urgent: false, log: [] });
    expect(result.trace).toEqual(["a", "b", "c"]);
    expect(result.routes.map((r) => `${r.from}->${r.to}${r.goto ? " (goto)" : ""}`)).toEqual(["a->b", "a->b (goto)", "a->c (goto)"]);
  });

  it("goes to END, and with Sends runs its target once per Send on the Send's input", async () => {
    interface Fan {
      items: string[];
      done: string[];
    }
    const graph = new StateGraph<Fan>({ reducers: { done: append } })
      .addNode("plan", (s) => new Command({ goto: s.items.map((item) => new Send("work", { item })) }), { ends: ["work", END] })
      .addNode("work", (input: { item: string }) => ({ done: [input.item.toUpperCase()] }))
      .addEdge(START, "plan")
      .addEdge("work", END)
      .compile();
    const result = await graph.invoke({ items: ["x", "y"], done: [] });
    expect(result.trace).toEqual(["plan", "work", "work"]);
    expect(result.state.done).toEqual(["X", "Y"]);
    expect(result.steps[0]?.goto).toEqual(["work", "work"]);

    const ends = new StateGraph<Fan>()
      .addNode("plan", () => new Command({ update: { items: [] }, goto: END }), { ends: [END] })
      .addEdge(START, "plan")
      .compile();
    expect((await ends.invoke({ items: ["x"], done: [] })).trace).toEqual(["plan"]);
  });

  it("an async node's Command, and a Command with an update only, behave as a plain update", async () => {
    const graph = new StateGraph<Ticket>({ reducers: { log: append } })
      .addNode("a", async () => new Command({ update: { log: ["a"] } }))
      .addNode("b", async () => new Command({ update: { log: ["b"] }, goto: "a" }), { ends: ["a"] })
      .addEdge(START, "a")
      .addConditionalEdges("a", (s): "again" | "done" => (s.log.length < 3 ? "again" : "done"), { again: "b", done: END })
      .compile();
    const result = await graph.invoke({ urgent: false, log: [] });
    expect(result.trace).toEqual(["a", "b", "a"]);
    expect(result.state.log).toEqual(["a", "b", "a"]);
  });

  it("streams the step with its goto", async () => {
    const seen: string[] = [];
    for await (const step of triageGraph().stream({ urgent: false, log: [] })) seen.push(`${step.node}:${step.goto?.join(",") ?? ""}`);
    expect(seen).toEqual(["triage:queue", "queue:"]);
  });
});

describe("a Command's goto and threads", () => {
  it("a goto survives as a pending write: the resumed run routes as the interrupted one would have", async () => {
    const checkpointer = new MemoryCheckpointer();
    let failB = true;
    const graph = new StateGraph<Ticket>({ reducers: { log: append } })
      .addNode("start", () => ({ log: ["start"] }))
      .addNode("a", () => new Command({ update: { log: ["a"] }, goto: "c" }), { ends: ["c"] })
      .addNode("b", () => {
        if (failB) throw new Error("flaky");
        return { log: ["b"] };
      })
      .addNode("c", () => ({ log: ["c"] }))
      .addEdge(START, "start")
      .addEdge("start", ["a", "b"])
      .addEdge("a", END)
      .addEdge("b", END)
      .addEdge("c", END)
      .compile();
    const failed = await graph.invoke({ urgent: false, log: [] }, { threadId: "t", checkpointer }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(GraphExecutionError);
    // The error shows what a's write was, without the goto's reserved key.
    expect((failed as GraphExecutionError).pendingWrites).toEqual([{ node: "a", update: { log: ["a"] } }]);
    failB = false;
    const resumed = await graph.invoke(null, { threadId: "t", checkpointer });
    expect(resumed.trace).toEqual(["start", "a", "b", "c"]);
    expect(resumed.state.log).toEqual(["start", "a", "b", "c"]);
  });
});

describe("refusals", () => {
  it("a goto outside the node's ends is UNDECLARED_GOTO, naming the node, the target and the ends", async () => {
    const graph = new StateGraph<Ticket>()
      // JavaScript callers, or a cast: the compiler refuses this goto.
      .addNode("a", () => new Command({ goto: "c" as "b" }), { ends: ["b"] })
      .addNode("b", () => undefined)
      .addNode("c", () => undefined)
      .addEdge(START, "a")
      .addEdge("a", "c")
      .addEdge("b", END)
      .addEdge("c", END)
      .compile();
    const error = await graph.invoke({ urgent: false, log: [] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GraphExecutionError);
    expect(error).toMatchObject({ code: "UNDECLARED_GOTO", node: "a", trace: [] });
    expect((error as Error).message).toMatch(/^invoke: node "a" returned a Command with goto "c", which is not one of its ends \("b"\)/);
  });

  it("a goto from a node that declares no ends says how to declare them", async () => {
    const graph = new StateGraph<Ticket>()
      .addNode("a", () => new Command({ goto: "a" as never }))
      .addEdge(START, "a")
      .addEdge("a", END)
      .compile();
    const error = await graph.invoke({ urgent: false, log: [] }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "UNDECLARED_GOTO" });
    expect((error as Error).message).toContain(`declares no ends. Declare where it may go: addNode("a", fn, { ends: ["a"] })`);
  });

  it("a node's Command with resume, and a plain update with the reserved key, are RESUME_IN_NODE and RESERVED_FIELD", async () => {
    const resume = new StateGraph<Ticket>()
      .addNode("a", () => new Command({ resume: "yes" }) as never)
      .addEdge(START, "a")
      .addEdge("a", END)
      .compile();
    const error = await resume.invoke({ urgent: false, log: [] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidUpdateError);
    expect(error).toMatchObject({ code: "RESUME_IN_NODE" });
    expect((error as Error).message).toContain("resume answers an interrupt");

    const spoof = new StateGraph<Ticket>()
      .addNode("a", () => ({ __goto__: [{ node: "a", sent: false }] }) as never)
      .addEdge(START, "a")
      .addEdge("a", END)
      .compile();
    await expect(spoof.invoke({ urgent: false, log: [] })).rejects.toMatchObject({ code: "RESERVED_FIELD" });
  });

  it("ends that name no node are a validation problem; ends that are not a list of names are refused at addNode", () => {
    const builder = new StateGraph<Ticket>()
      .addNode("a", () => undefined, { ends: ["nowhere"] })
      .addEdge(START, "a")
      .addEdge("a", END);
    // @ts-expect-error - "nowhere" is not a node: the compiler refuses the compile() call too
    const compile = () => builder.compile();
    expect(compile).toThrow(GraphValidationError);
    expect(compile).toThrow(/addNode\("a", fn, \{ ends: \["nowhere"\] \}\): destination "nowhere" is not a declared node/);
    expect(() => new StateGraph<Ticket>().addNode("a", () => undefined, { ends: [] })).toThrow(/must list the nodes its Command may go to/);
    expect(() => new StateGraph<Ticket>().addNode("a", () => undefined, { ends: "b" as never })).toThrow(/must list the nodes/);
    expect(() => new StateGraph<Ticket>().addNode("a", () => undefined, { ends: [1] as never })).toThrow(
      /the ends of "a" must be a node name/,
    );
  });

  it("a node whose only rule is its ends counts as leaving; its ends make the targets reachable", () => {
    expect(triageGraph().spec.ends).toEqual([{ from: "triage", to: ["page", "queue"] }]);
    // Without ends, "page" and "queue" are unreachable and "triage" has no exit.
    const builder = new StateGraph<Ticket>()
      .addNode("triage", () => undefined)
      .addNode("page", () => undefined)
      .addEdge(START, "triage")
      .addEdge("page", END);
    // @ts-expect-error - triage has no exit and page is unreachable
    const compile = () => builder.compile();
    expect(compile).toThrow(/has no outgoing edge[\s\S]*is not reachable from START/);
  });
});
