/**
 * A node returning `new Command({ update, goto })` on LangGraph.js and on the mini engine. The export
 * adds the node with LangGraph's `ends` and the wrapper returns LangGraph's `Command`, so LangGraph
 * routes the goto itself. Each case runs on both engines and compares state, trace, steps (with their
 * `goto`) and routes; the threaded cases compare every call's result (status, interrupts, next, steps).
 */
import { describe, expect, it } from "vitest";
import { append, Command, END, Send, START, StateGraph, type CompiledGraph } from "../../src/index.js";
import { runOnLangGraph, toLangGraph } from "../../src/langgraph/index.js";
import { interrupt } from "../../src/index.js";
import { onBothEngines, settle } from "./_helpers.js";

interface Ticket {
  urgent: boolean;
  log: string[];
}

const TICKET = { reducers: { log: append }, fields: ["urgent", "log"] } as const;

/** Runs the graph on both engines; resolves with both outcomes (or failures), to compare. */
async function both<S extends object>(graph: CompiledGraph<S>, input: S) {
  const [mini, langGraph] = await Promise.all([settle(graph.invoke(input)), settle(runOnLangGraph(graph, input))]);
  return { mini, langGraph };
}

/** LangGraph's edgeless shape: triage has no edge, only ends; its Command decides where the run goes. */
function triageGraph(interruptAfter: readonly "triage"[] = []) {
  return new StateGraph<Ticket>(TICKET)
    .addNode("triage", (s) => new Command({ update: { log: ["triage"] }, goto: s.urgent ? "page" : "queue" }), { ends: ["page", "queue"] })
    .addNode("page", () => ({ log: ["page"] }))
    .addNode("queue", () => ({ log: ["queue"] }))
    .addEdge(START, "triage")
    .addEdge("page", END)
    .addEdge("queue", END)
    .compile({ interruptAfter });
}

/** START → a → c → END, where a's Command also goes to b or END, as `goto` says. */
function besideEdge(goto: (s: Ticket) => "b" | typeof END) {
  return new StateGraph<Ticket>(TICKET)
    .addNode("a", (s) => new Command({ update: { log: ["a"] }, goto: goto(s) }), { ends: ["b", END] })
    .addNode("b", () => ({ log: ["b"] }))
    .addNode("c", () => ({ log: ["c"] }))
    .addEdge(START, "a")
    .addEdge("a", "c")
    .addEdge("b", END)
    .addEdge("c", END)
    .compile();
}

describe("the export of a node that returns a Command", () => {
  it("is added with LangGraph's ends, so LangGraph draws its goto edges", async () => {
    const lg = await toLangGraph(triageGraph());
    expect(lg.builder.nodes["triage"]?.ends).toEqual(["page", "queue"]);
    expect(lg.builder.nodes["page"]?.ends).toBeUndefined();
    const mermaid = (await lg.getGraphAsync()).drawMermaid();
    expect(mermaid).toMatch(/triage -.-> page/);
    expect(mermaid).toMatch(/triage -.-> queue/);
  });

  it("goto one node, with an update: the same state, trace, steps and routes on both; a plain lg.invoke agrees", async () => {
    for (const urgent of [true, false]) {
      const graph = triageGraph();
      const run = await both(graph, { urgent, log: [] });
      expect(run.langGraph).toEqual(run.mini);
      expect(run.mini.ok?.trace).toEqual(["triage", urgent ? "page" : "queue"]);
      expect(run.mini.ok?.steps[0]?.goto).toEqual([urgent ? "page" : "queue"]);
      const lg = await toLangGraph(graph);
      expect(await lg.invoke({ urgent, log: [] })).toEqual(run.mini.ok?.state);
    }
  });

  it("goto several nodes, beside the node's static edge and its route (a goto adds; a destination named twice runs once)", async () => {
    const beside = new StateGraph<Ticket>(TICKET)
      .addNode("a", () => new Command({ update: { log: ["a"] }, goto: ["c", "d"] }), { ends: ["c", "d"] })
      .addNode("b", () => ({ log: ["b"] }))
      .addNode("c", () => ({ log: ["c"] }))
      .addNode("d", () => ({ log: ["d"] }))
      .addEdge(START, "a")
      .addEdge("a", "b")
      .addEdge("b", END)
      .addEdge("c", END)
      .addEdge("d", END)
      .compile();
    const routed = new StateGraph<Ticket>(TICKET)
      .addNode("a", () => new Command({ goto: ["b", "c"] }), { ends: ["b", "c"] })
      .addNode("b", () => ({ log: ["b"] }))
      .addNode("c", () => ({ log: ["c"] }))
      .addEdge(START, "a")
      .addConditionalEdges("a", (): "next" => "next", { next: "b" })
      .addEdge("b", END)
      .addEdge("c", END)
      .compile();
    const first = await both(beside, { urgent: false, log: [] });
    expect(first.langGraph).toEqual(first.mini);
    expect(first.mini.ok?.trace).toEqual(["a", "b", "c", "d"]);
    const second = await both(routed, { urgent: false, log: [] });
    expect(second.langGraph).toEqual(second.mini);
    expect(second.mini.ok?.routes.map((r) => `${r.from}->${r.to}${r.goto ? " (goto)" : ""}`)).toEqual([
      "a->b",
      "a->b (goto)",
      "a->c (goto)",
    ]);
  });

  it("goto END adds nothing: the run ends there, or goes on along the node's edge, on both", async () => {
    const ends = new StateGraph<Ticket>(TICKET)
      .addNode("stop", () => new Command({ update: { log: ["stop"] }, goto: END }), { ends: [END] })
      .addEdge(START, "stop")
      .compile();
    const beside = besideEdge((s) => (s.urgent ? "b" : END));
    const stop = await both(ends, { urgent: false, log: [] });
    expect(stop.langGraph).toEqual(stop.mini);
    expect(stop.mini.ok?.steps[0]?.goto).toEqual([END]);
    for (const urgent of [true, false]) {
      const run = await both(beside, { urgent, log: [] });
      expect(run.langGraph).toEqual(run.mini);
      expect(run.mini.ok?.trace).toEqual(urgent ? ["a", "b", "c"] : ["a", "c"]);
    }
  });

  it("goto inside a loop: a node that sends the run back until a count is reached, then leaves by its route", async () => {
    interface Count {
      n: number;
      log: string[];
    }
    const graph = new StateGraph<Count>({ reducers: { log: append }, fields: ["n", "log"] })
      .addNode("work", (s) => ({ n: s.n + 1, log: [`work${s.n}`] }))
      .addNode("check", (s) => (s.n < 3 ? new Command({ update: { log: ["again"] }, goto: "work" }) : { log: ["enough"] }), {
        ends: ["work"],
      })
      .addNode("report", (s) => ({ log: [`report${s.n}`] }))
      .addEdge(START, "work")
      .addEdge("work", "check")
      .addConditionalEdges("check", (s): "done" | "wait" => (s.n >= 3 ? "done" : "wait"), { done: "report", wait: END })
      .addEdge("report", END)
      .compile();
    for (const n of [0, 2, 5]) {
      const run = await both(graph, { n, log: [] });
      expect(run.langGraph).toEqual(run.mini);
    }
    expect((await graph.invoke({ n: 0, log: [] })).trace).toEqual(["work", "check", "work", "check", "work", "check", "report"]);
  });

  it("goto with Sends: one task per Send on its input, merged in the order sent; a routed node's goto Sends run after its router's", async () => {
    interface Fan {
      items: string[];
      done: string[];
    }
    const fan = new StateGraph<Fan>({ reducers: { done: append }, fields: ["items", "done"] })
      .addNode("plan", (s) => new Command({ goto: s.items.map((item) => new Send("work", { item })) }), { ends: ["work", END] })
      .addNode("work", async (input: { item: string }) => {
        // The first Send finishes last: the merge keeps the order sent on both engines.
        await new Promise((resolve) => setTimeout(resolve, input.item === "x" ? 5 : 0));
        return { done: [input.item.toUpperCase()] };
      })
      .addEdge(START, "plan")
      .addEdge("work", END)
      .compile();
    for (const items of [[], ["x"], ["x", "y", "z"]]) {
      const run = await both(fan, { items, done: [] });
      expect(run.langGraph).toEqual(run.mini);
    }
    // LangGraph runs a Command's goto before the node's conditional edge; the export keeps the mini engine's order.
    const routed = new StateGraph<Fan>({ reducers: { done: append }, fields: ["items", "done"] })
      .addNode("plan", () => new Command({ goto: [new Send("work", { item: "goto" }), "tally"] }), { ends: ["work", "tally"] })
      .addNode("work", (input: { item: string }) => ({ done: [input.item] }))
      .addNode("tally", () => ({ done: ["tally"] }))
      .addEdge(START, "plan")
      .addConditionalEdges("plan", () => [new Send("work", { item: "route" })], ["work"])
      .addEdge("work", END)
      .addEdge("tally", END)
      .compile();
    const run = await both(routed, { items: [], done: [] });
    expect(run.langGraph).toEqual(run.mini);
    expect(run.mini.ok?.state.done).toEqual(["route", "goto", "tally"]);
    const lg = await toLangGraph(routed);
    expect(await lg.invoke({ items: [], done: [] })).toEqual(run.mini.ok?.state);
  });

  it("goto from a join's source and into a parallel superstep: the join still waits for its sources", async () => {
    const graph = new StateGraph<Ticket>(TICKET)
      .addNode("plan", () => ({ log: ["plan"] }))
      .addNode("left", () => new Command({ update: { log: ["left"] }, goto: "extra" }), { ends: ["extra"] })
      .addNode("right", () => ({ log: ["right"] }))
      .addNode("extra", () => ({ log: ["extra"] }))
      .addNode("join", (s) => ({ log: [`join:${s.log.length}`] }))
      .addEdge(START, "plan")
      .addEdge("plan", ["left", "right"])
      .addEdge(["left", "right"], "join")
      .addEdge("extra", END)
      .addEdge("join", END)
      .compile();
    const run = await both(graph, { urgent: false, log: [] });
    expect(run.langGraph).toEqual(run.mini);
    expect(run.mini.ok?.trace).toEqual(["plan", "left", "right", "extra", "join"]);
  });

  it("a goto outside the node's ends fails with the same UNDECLARED_GOTO error on both", async () => {
    const graph = besideEdge(() => "c" as "b");
    const run = await both(graph, { urgent: false, log: [] });
    expect(run.langGraph).toEqual(run.mini);
    expect(run.mini.failed).toMatchObject({ code: "UNDECLARED_GOTO", node: "a" });
  });
});

describe("a node's Command goto with interrupts, on threads of both engines", () => {
  /** START → ask (interrupts) → triage (Command goto by the answer) → page | queue (page interrupts too) → END. */
  function gated() {
    const runs: string[] = [];
    const graph = new StateGraph<Ticket>(TICKET)
      .addNode("ask", () => {
        runs.push("ask");
        return { urgent: interrupt<boolean>({ question: "urgent?" }) };
      })
      .addNode(
        "triage",
        (s) => {
          runs.push("triage");
          const note = interrupt<string>({ question: "note?", urgent: s.urgent });
          return new Command({ update: { log: [`triage:${note}`] }, goto: s.urgent ? "page" : "queue" });
        },
        { ends: ["page", "queue"] },
      )
      .addNode("page", () => {
        runs.push("page");
        return { log: [`page:${interrupt<string>({ question: "who?" })}`] };
      })
      .addNode("queue", () => ({ log: ["queue"] }))
      .addEdge(START, "ask")
      .addEdge("ask", "triage")
      .addEdge("page", END)
      .addEdge("queue", END)
      .compile();
    return { graph, runs };
  }

  it("paused before, inside and after the commanding node, resumed: the same results at every call, nodes re-run as often", async () => {
    const urgent = await onBothEngines(gated, { urgent: false, log: [] }, [
      () => new Command({ resume: true }),
      () => new Command({ resume: "hot" }),
      () => new Command({ resume: "oncall" }),
    ]);
    expect(urgent.langGraph).toEqual(urgent.mini);
    expect(urgent.langGraphRuns).toEqual(urgent.miniRuns);
    expect(urgent.last).toMatchObject({ status: "done", state: { log: ["triage:hot", "page:oncall"] }, trace: ["ask", "triage", "page"] });

    const calm = await onBothEngines(gated, { urgent: false, log: [] }, [
      () => new Command({ resume: false }),
      () => new Command({ resume: "later", update: { log: ["edited"] } }),
    ]);
    expect(calm.langGraph).toEqual(calm.mini);
    expect(calm.last).toMatchObject({ status: "done", state: { log: ["edited", "triage:later", "queue"] } });
  });

  it("interruptAfter the commanding node: the goto waits in the thread's next tasks, and null continues to it", async () => {
    const build = () => ({ graph: triageGraph(["triage"]), runs: [] });
    const run = await onBothEngines(build, { urgent: true, log: [] }, [() => null]);
    expect(run.langGraph).toEqual(run.mini);
    expect(run.mini[0]).toMatchObject({ status: "interrupted", next: ["page"] });
    expect(run.last).toMatchObject({ status: "done", trace: ["triage", "page"] });
  });

  it("beside a sibling that interrupts: the goto survives the pause in LangGraph's pending writes, and the resumed call reports it on both", async () => {
    const build = () => {
      const runs: string[] = [];
      const graph = new StateGraph<Ticket>(TICKET)
        .addNode("plan", () => ({ log: ["plan"] }))
        .addNode(
          "left",
          () => {
            runs.push("left");
            return new Command({ update: { log: ["left"] }, goto: "extra" });
          },
          { ends: ["extra"] },
        )
        .addNode("right", () => {
          runs.push("right");
          return { log: [`right:${interrupt<string>({ question: "?" })}`] };
        })
        .addNode("extra", () => ({ log: ["extra"] }))
        .addEdge(START, "plan")
        .addEdge("plan", ["left", "right"])
        .addEdge("left", END)
        .addEdge("right", END)
        .addEdge("extra", END)
        .compile();
      return { graph, runs };
    };
    const run = await onBothEngines(build, { urgent: false, log: [] }, [() => new Command({ resume: "ok" })]);
    // left ran once on each engine: its update and its goto were kept while right waited.
    expect(run.langGraphRuns).toEqual(run.miniRuns);
    expect(run.last).toMatchObject({ status: "done", trace: ["plan", "left", "right", "extra"] });
    // LangGraph keeps the goto as branch writes, which look like a router's; the export's own pending
    // write of the task says which were the goto, so the step that reports left on resume has it.
    const [, resumed] = run.mini as { steps: { node: string; goto?: readonly string[] }[] }[];
    expect(resumed?.steps[0]).toMatchObject({ node: "left", goto: ["extra"] });
    expect(run.langGraph).toEqual(run.mini);
  });

  // Named in declaration order: the merge order of a paused superstep's kept writes is LangGraph's (see docs/langgraph.md).
  it("beside a sibling that interrupts, a goto to END, a goto Send, and a routed node's route are reported on resume on both", async () => {
    const build = () => {
      const runs: string[] = [];
      const graph = new StateGraph<Ticket>(TICKET)
        .addNode("plan", () => ({ log: ["plan"] }))
        .addNode("a_stop", () => new Command({ update: { log: ["a_stop"] }, goto: END }), { ends: [END] })
        .addNode("b_send", () => new Command({ update: { log: ["b_send"] }, goto: [new Send("extra", { urgent: true, log: ["sent"] })] }), {
          ends: ["extra"],
        })
        .addNode("c_routed", () => ({ log: ["c_routed"] }))
        .addNode("d_right", () => {
          runs.push("d_right");
          return { log: [`d_right:${interrupt<string>({ question: "?" })}`] };
        })
        .addNode("extra", (s) => ({ log: [`extra:${s.log.join("+")}`] }))
        .addEdge(START, "plan")
        .addEdge("plan", ["a_stop", "b_send", "c_routed", "d_right"])
        .addConditionalEdges("c_routed", (s) => (s.urgent ? "extra" : END), { extra: "extra", [END]: END })
        .addEdge("b_send", END)
        .addEdge("d_right", END)
        .addEdge("extra", END)
        .compile();
      return { graph, runs };
    };
    const run = await onBothEngines(build, { urgent: true, log: [] }, [() => new Command({ resume: "ok" })]);
    expect(run.langGraph).toEqual(run.mini);
    const [, resumed] = run.mini as { steps: { node: string; goto?: readonly string[]; route?: unknown }[] }[];
    expect(resumed?.steps.slice(0, 3)).toMatchObject([
      { node: "a_stop", goto: [END] },
      { node: "b_send", goto: ["extra"] },
      { node: "c_routed", route: "extra" },
    ]);
  });
});
