import { describe, expect, it } from "vitest";
import { END, START, StateGraph } from "../../src/index.js";
import { toMermaid } from "../../src/render/mermaid.js";
import { everyRule, examples } from "./_graphs.js";

describe("toMermaid", () => {
  it("draws START and END as distinct shapes, fixed edges as plain arrows, route keys as labels", () => {
    expect(toMermaid(examples.report())).toMatchInlineSnapshot(`
      "flowchart TD
        __start__(("START"))
        collect["collect"]
        write_draft["write_draft"]
        check_draft["check_draft"]
        revise_draft["revise_draft"]
        publish["publish"]
        hold["hold"]
        __end__((("END")))
        __start__ --> collect
        collect --> write_draft
        write_draft --> check_draft
        check_draft -->|"accept"| publish
        check_draft -->|"revise"| revise_draft
        check_draft -->|"hold"| hold
        revise_draft --> check_draft
        publish --> __end__
        hold --> __end__
      "
    `);
  });

  it("draws a loop of routes", () => {
    expect(toMermaid(examples.agent())).toMatchInlineSnapshot(`
      "flowchart TD
        __start__(("START"))
        model["model"]
        tools["tools"]
        __end__((("END")))
        __start__ --> model
        model -->|"tools"| tools
        model -->|"end"| __end__
        tools -->|"model"| model
        tools -->|"end"| __end__
      "
    `);
  });

  it("draws a fan-out as thick arrows and a join as a junction", () => {
    expect(toMermaid(examples.research())).toMatchInlineSnapshot(`
      "flowchart TD
        __start__(("START"))
        plan["plan"]
        web["web"]
        papers["papers"]
        internal["internal"]
        synthesize["synthesize"]
        join_0(("join"))
        __end__((("END")))
        __start__ --> plan
        plan ==> web
        plan ==> papers
        plan ==> internal
        web --> join_0
        papers --> join_0
        internal --> join_0
        join_0 --> synthesize
        synthesize --> __end__
      "
    `);
  });

  it("draws a route that may fan out (a list of destinations, Send) as thick labelled arrows", () => {
    expect(toMermaid(examples.digest())).toMatchInlineSnapshot(`
      "flowchart TD
        __start__(("START"))
        split["split"]
        summarize["summarize"]
        write_digest["write_digest"]
        __end__((("END")))
        __start__ --> split
        split ==>|"summarize"| summarize
        split ==>|"END"| __end__
        summarize --> write_digest
        write_digest --> __end__
      "
    `);
  });

  it("takes a spec as well as a compiled graph, and reads nothing else", () => {
    const graph = examples.research();
    expect(toMermaid(graph.spec)).toBe(toMermaid(graph));
    expect(toMermaid(JSON.parse(JSON.stringify(graph.spec)))).toBe(toMermaid(graph));
  });

  it("draws left to right on request", () => {
    const graph = new StateGraph<{ n: number }>()
      .addNode("only", () => ({}))
      .addEdge(START, "only")
      .addEdge("only", END)
      .compile();
    expect(toMermaid(graph, { direction: "LR" })).toMatchInlineSnapshot(`
      "flowchart LR
        __start__(("START"))
        only["only"]
        __end__((("END")))
        __start__ --> only
        only --> __end__
      "
    `);
  });

  it("draws every kind of rule of one spec", () => {
    expect(toMermaid(everyRule)).toMatchInlineSnapshot(`
      "flowchart TD
        __start__(("START"))
        plan["plan"]
        a["a"]
        b["b"]
        merge["merge"]
        pick["pick"]
        x["x"]
        y["y"]
        join_0(("join"))
        __end__((("END")))
        __start__ --> plan
        plan ==> a
        plan ==> b
        a --> join_0
        b --> join_0
        join_0 --> merge
        merge --> pick
        pick ==>|"x"| x
        pick ==>|"y"| y
        pick ==>|"END"| __end__
        x --> __end__
        y --> __end__
      "
    `);
  });
});
