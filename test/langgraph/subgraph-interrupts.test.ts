/**
 * A subgraph's child that interrupts, on LangGraph.js and on the mini engine. On both, the child keeps
 * its own checkpoints under its parent's thread (LangGraph's `checkpoint_ns`), so a resume continues
 * inside the child: its completed steps do not run again (the nodes count their runs). Every call's
 * result agrees, interrupt ids included; `ns` names each engine's own namespace, so it is compared apart.
 */
import { describe, expect, it } from "vitest";
import { append, Command, defineInterrupt, END, interrupt, START, StateGraph, subgraph } from "../../src/index.js";
import { counting, onBothEngines, withoutNs } from "./_helpers.js";

interface Flow {
  log: string[];
  n: number;
}

const FLOW = { reducers: { log: append }, fields: ["log", "n"] } as const;

/** START → before → sub (c1 → c2 → ask, which asks twice) → after → END; `output` maps the child's result, when given. */
function build(mapped: boolean) {
  return () => {
    const runs: string[] = [];
    const child = new StateGraph<Flow>(FLOW)
      .addNode("c1", () => {
        runs.push("c1");
        return { log: ["c1"] };
      })
      .addNode("c2", (s) => {
        runs.push("c2");
        return { log: [`c2@${s.log.length}`], n: 1 };
      })
      .addNode("ask", () => {
        runs.push("ask");
        const first = interrupt<string>({ q: "first?" });
        return { log: [`ask:${first},${interrupt<string>({ q: "second?", first })}`] };
      })
      .addEdge(START, "c1")
      .addEdge("c1", "c2")
      .addEdge("c2", "ask")
      .addEdge("ask", END)
      .compile();
    const node = mapped ? subgraph<Flow, Flow>(child, { output: (c) => ({ n: c.log.length }) }) : child;
    const graph = new StateGraph<Flow>(FLOW)
      .addNode("before", () => ({ log: ["before"] }))
      .addNode("sub", node)
      .addNode("after", (s) => ({ log: [`after:${s.n}`] }))
      .addEdge(START, "before")
      .addEdge("before", "sub")
      .addEdge("sub", "after")
      .addEdge("after", END)
      .compile();
    return { graph, runs };
  };
}

describe("interrupts inside a subgraph, on LangGraph.js and on the mini engine", () => {
  for (const mapped of [false, true]) {
    it(`the child resumes from its own checkpoint: its first steps run once on both (${mapped ? "output mapping" : "shared state"})`, async () => {
      const run = await onBothEngines(build(mapped), { log: [], n: 0 }, [
        () => new Command({ resume: "yes" }),
        () => new Command({ resume: "no" }),
      ]);
      expect(run.langGraph.map(withoutNs)).toEqual(run.mini.map(withoutNs));
      expect(run.miniRuns).toEqual(["c1", "c2", "ask", "ask", "ask"]);
      expect(run.langGraphRuns).toEqual(run.miniRuns);
      expect(run.mini[0]).toMatchObject({
        status: "interrupted",
        interrupt: { interrupts: [{ id: "sub:2:0/ask:3:0:0", node: "ask", value: { q: "first?" } }] },
      });
      const [, second] = run.langGraph as { interrupt: { interrupts: { ns: string[] }[] } }[];
      // LangGraph's own namespace of the child: the subgraph task's.
      expect(second?.interrupt.interrupts[0]?.ns[0]).toMatch(/^sub:/);
      expect(run.last.state.log).toEqual(mapped ? ["before", `after:${4}`] : ["before", "c1", "c2@2", "ask:yes,no", "after:1"]);
    });
  }

  it("a defineInterrupt inside a child, and inside a child's child, is reported with its name on both", async () => {
    const approval = defineInterrupt<{ draft: string }, boolean>("approval");
    const build = () => {
      const runs: string[] = [];
      const asking = (name: string) => counting(runs)(name, () => ({ log: [`${name}:${approval({ draft: name })}`] }));
      const grandchild = new StateGraph<Flow>(FLOW)
        .addNode("g", asking("g"))
        .addNode("g_next", asking("g2"))
        .addEdge(START, "g")
        .addEdge("g", "g_next")
        .addEdge("g_next", END)
        .compile();
      const child = new StateGraph<Flow>(FLOW)
        .addNode("c", asking("c"))
        .addNode("c_next", grandchild)
        .addEdge(START, "c")
        .addEdge("c", "c_next")
        .addEdge("c_next", END)
        .compile();
      const graph = new StateGraph<Flow>(FLOW)
        .addNode("top", asking("top"))
        .addNode("top_next", child)
        .addEdge(START, "top")
        .addEdge("top", "top_next")
        .addEdge("top_next", END)
        .compile();
      return { graph, runs };
    };
    const run = await onBothEngines<Flow>(
      build,
      { log: [], n: 0 },
      [true, false, true, true].map((answer) => () => approval.resume(answer)),
    );
    expect(run.langGraph.map(withoutNs)).toEqual(run.mini.map(withoutNs));
    expect(run.langGraphRuns).toEqual(run.miniRuns);
    const asked = run.mini.map((call) => (call as { interrupt?: { interrupts: { id: string; name?: string }[] } }).interrupt?.interrupts);
    expect(asked.slice(0, 4).map((interrupts) => interrupts?.map(({ id, name }) => ({ id, name })))).toEqual([
      [{ id: "top:1:0:0", name: "approval" }],
      [{ id: "top_next:2:0/c:1:0:0", name: "approval" }],
      [{ id: "top_next:2:0/c_next:2:0/g:1:0:0", name: "approval" }],
      [{ id: "top_next:2:0/c_next:2:0/g_next:2:0:0", name: "approval" }],
    ]);
    expect(run.last).toMatchObject({ status: "done", state: { log: ["top:true", "c:false", "g:true", "g2:true"] } });
  });
});
