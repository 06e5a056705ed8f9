import { describe, expect, it } from "vitest";
import {
  buildDigestGraph,
  buildResearchGraph,
  fakeSources,
  initialResearchState,
  type ResearchSource,
} from "../../../src/examples/research/index.js";
import { GraphExecutionError } from "../../../src/index.js";

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe("the research graph", () => {
  it("runs plan, the three branches in one superstep, then synthesize once", async () => {
    const { state, trace, supersteps } = await buildResearchGraph().invoke(initialResearchState("tides"));
    expect(trace).toEqual(["plan", "web", "papers", "internal", "synthesize"]);
    expect(supersteps).toBe(3);
    expect(state.findings).toEqual([
      "web: tides explained for travellers",
      "papers: a survey of tides",
      "papers: tides, measured over ten years",
      "papers: 2 papers ranked",
      "internal: our notes on tides",
    ]);
    expect(state.summary).toMatch(/^5 findings on tides: web: /);
  });

  it("the branches really overlap: all three start before any may finish", async () => {
    const started: string[] = [];
    const gate = deferred();
    const held =
      (name: string, inner: ResearchSource): ResearchSource =>
      async (query) => {
        started.push(name);
        if (started.length === 3) gate.resolve();
        await gate.promise;
        return inner(query);
      };
    const real = fakeSources();
    const graph = buildResearchGraph({
      sources: { web: held("web", real.web), papers: held("papers", real.papers), internal: held("internal", real.internal) },
    });
    const { state } = await graph.invoke(initialResearchState("tides"));
    expect(started.sort()).toEqual(["internal", "papers", "web"]);
    expect(state.summary).not.toBeNull();
  });

  it("merges findings in declaration order whatever order the sources answer in", async () => {
    const real = fakeSources();
    const slow =
      (ms: number, inner: ResearchSource): ResearchSource =>
      async (q) => {
        await new Promise((r) => setTimeout(r, ms));
        return inner(q);
      };
    const reversed = buildResearchGraph({
      sources: { web: slow(20, real.web), papers: slow(10, real.papers), internal: slow(0, real.internal) },
    });
    const expected = (await buildResearchGraph().invoke(initialResearchState("tides"))).state;
    expect((await reversed.invoke(initialResearchState("tides"))).state).toEqual(expected);
  });

  it("has no order warning: findings use a commutative reducer", () => {
    expect(buildResearchGraph().warnings).toEqual([]);
  });

  it("runs the papers specialist as a subgraph; a failure inside carries the path", async () => {
    const failing: ResearchSource = async () => {
      throw new Error("archive offline");
    };
    const graph = buildResearchGraph({ sources: { ...fakeSources(), papers: failing } });
    const error = (await graph.invoke(initialResearchState("tides")).catch((e: unknown) => e)) as GraphExecutionError;
    expect(error).toBeInstanceOf(GraphExecutionError);
    expect(error.path).toEqual(["papers", "search"]);
    expect(error.trace).toEqual(["plan"]);
    expect(error.state.findings).toEqual([]);
  });

  it("rejects a blank topic", () => {
    expect(() => initialResearchState("  ")).toThrow(/^initialResearchState: the topic must be non-blank text/);
  });
});

describe("the digest graph (Send)", () => {
  it.each([
    [[], ["split"], null],
    [["one two three four five six"], ["split", "summarize", "write_digest"], "1 summaries: one two three four five"],
    [["a b", "c d", "e f"], ["split", "summarize", "summarize", "summarize", "write_digest"], "3 summaries: a b | c d | e f"],
  ])("summarizes %j, one Send per document", async (documents, trace, digest) => {
    const result = await buildDigestGraph().invoke({ documents, summaries: [], digest: null });
    expect(result.trace).toEqual(trace);
    expect(result.state.digest).toBe(digest);
  });

  it("has no order warning", () => {
    expect(buildDigestGraph().warnings).toEqual([]);
  });
});
