/** graphSvg: the inspector's diagram, drawn from the spec with the Mermaid export's boxes and links. */
import { describe, expect, it } from "vitest";
import { buildReportGraph } from "../../src/examples/report/index.js";
import { buildResearchGraph } from "../../src/examples/research/index.js";
import { END, START, StateGraph } from "../../src/index.js";
import { toMermaid } from "../../src/render/index.js";
import { graphSvg } from "../../src/inspect/svg.js";

const attributes = (svg: string, name: string) => [...svg.matchAll(new RegExp(` ${name}="([^"]*)"`, "g"))].map((m) => m[1]);

describe("graphSvg", () => {
  it("draws START, every node and END, with one link per Mermaid arrow, in the same order", () => {
    const graph = buildReportGraph();
    const svg = graphSvg(graph.spec);
    expect(attributes(svg, "data-node")).toEqual([START, "collect", "write_draft", "check_draft", "revise_draft", "publish", "hold", END]);
    const arrows = toMermaid(graph)
      .split("\n")
      .filter((line) => line.includes("-->") || line.includes("==>"));
    expect(attributes(svg, "data-link")).toEqual(arrows.map((_, index) => String(index)));
    expect(attributes(svg, "data-key")).toEqual(["accept", "revise", "hold"]);
  });

  it("draws a join as a junction the joined nodes lead into, and fan-out branches as their own kind", () => {
    const svg = graphSvg(buildResearchGraph().spec);
    expect(svg).toContain('class="node kind-join" data-node="join_0"');
    expect(svg.match(/class="link kind-joinIn"/g)).toHaveLength(3);
    expect(svg.match(/class="link kind-fanOut"/g)).toHaveLength(3);
  });

  it("escapes names: a node name is text, never markup", () => {
    const graph = new StateGraph<{ n: number }>()
      .addNode('<b onclick="x">&', () => ({}))
      .addEdge(START, '<b onclick="x">&')
      .addEdge('<b onclick="x">&', END)
      .compile();
    const svg = graphSvg(graph.spec);
    expect(svg).not.toContain("<b ");
    expect(svg).toContain('data-node="&lt;b onclick=&quot;x&quot;&gt;&amp;"');
  });

  it("fits every node inside the drawing, a loop included", () => {
    const svg = graphSvg(buildReportGraph().spec);
    const [width, height] = (svg.match(/viewBox="0 0 (\d+) (\d+)"/)?.slice(1) ?? []).map(Number);
    const xs = attributes(svg, "x").map(Number);
    const ys = attributes(svg, "y").map(Number);
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...xs)).toBeLessThanOrEqual(width ?? 0);
    expect(Math.max(...ys)).toBeLessThanOrEqual(height ?? 0);
  });
});
