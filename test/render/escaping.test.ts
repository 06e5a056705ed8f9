/** Node names and route keys may hold anything: ids are generated, labels quoted and escaped. */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { toDot } from "../../src/render/dot.js";
import { toMermaid } from "../../src/render/mermaid.js";
import { awkward, awkwardNames } from "./_graphs.js";
import { readDot, readMermaid } from "./_read.js";

const KEYWORDS = [
  "end",
  "graph",
  "flowchart",
  "subgraph",
  "style",
  "linkstyle",
  "classdef",
  "class",
  "click",
  "node",
  "edge",
  "digraph",
  "strict",
];

describe.each([
  ["Mermaid", () => readMermaid(toMermaid(awkward))],
  ["DOT", () => readDot(toDot(awkward))],
])("%s", (_format, read) => {
  it("gives every box a distinct bare id that is no keyword", () => {
    const ids = [...read().nodes.keys()];
    for (const id of ids) {
      expect(id).toMatch(/^[A-Za-z_][A-Za-z0-9_]*$/);
      expect(KEYWORDS).not.toContain(id.toLowerCase());
    }
    expect(new Set(ids.map((id) => id.toLowerCase())).size).toBe(ids.length);
  });

  it("keeps each name as its label, quotes, brackets and Unicode included", () => {
    const labels = [...read().nodes.values()].filter((node) => node.kind === "node").map((node) => node.label);
    expect(labels).toEqual([...awkwardNames]);
  });

  it("keeps each route key as its label", () => {
    const labels = read().links.flatMap((link) => (link.label === undefined ? [] : [link.label]));
    expect(labels).toEqual(['k "1" | [2]', "#35;"]);
  });
});

describe("Mermaid escaping", () => {
  it("writes the characters that would end a quote, start an entity or read as markup as entities", () => {
    expect(toMermaid(awkward)).toMatchInlineSnapshot(`
      "flowchart TD
        __start__(("START"))
        say_hi["say #34;hi#34;"]
        x_y_z["[x] {y} (z)"]
        b_amp_35_c_d["#60;b#62;#38;amp; #35;35; #96;c#96; #124; d"]
        n_end["end"]
        n_subgraph["subgraph"]
        n["東京 🌸"]
        a_b["a-b"]
        a_b_2["a_b"]
        back_slash_newline["back#92;slash#10;newline"]
        n_2nd["2nd"]
        join_0["join_0"]
        start_x["__start__x"]
        join_0_2(("join"))
        __end__((("END")))
        __start__ --> say_hi
        say_hi -->|"k #34;1#34; #124; [2]"| x_y_z
        say_hi -->|"#35;35;"| n_end
        x_y_z --> b_amp_35_c_d
        n_end --> n_subgraph
        n_subgraph --> n
        n ==> a_b
        n ==> a_b_2
        a_b --> join_0_2
        a_b_2 --> join_0_2
        join_0_2 --> back_slash_newline
        back_slash_newline --> n_2nd
        n_2nd --> join_0
        join_0 --> start_x
        start_x --> __end__
      "
    `);
  });
});

describe("DOT escaping", () => {
  it("escapes quotes and backslashes, writes & as an entity and line breaks as \\n", () => {
    expect(toDot(awkward)).toMatchInlineSnapshot(`
      "digraph {
        rankdir=TB;
        node [shape=box, style=rounded];
        __start__ [label="START", shape="circle"];
        say_hi [label="say \\"hi\\""];
        x_y_z [label="[x] {y} (z)"];
        b_amp_35_c_d [label="<b>&amp;amp; #35; \`c\` | d"];
        n_end [label="end"];
        n_subgraph [label="subgraph"];
        n [label="東京 🌸"];
        a_b [label="a-b"];
        a_b_2 [label="a_b"];
        back_slash_newline [label="back\\\\slash\\nnewline"];
        n_2nd [label="2nd"];
        join_0 [label="join_0"];
        start_x [label="__start__x"];
        join_0_2 [label="", shape="box", style="filled", fillcolor="black", width="0.8", height="0.05", fixedsize="true"];
        __end__ [label="END", shape="doublecircle"];
        __start__ -> say_hi;
        say_hi -> x_y_z [label="k \\"1\\" | [2]"];
        say_hi -> n_end [label="#35;"];
        x_y_z -> b_amp_35_c_d;
        n_end -> n_subgraph;
        n_subgraph -> n;
        n -> a_b [style="bold"];
        n -> a_b_2 [style="bold"];
        a_b -> join_0_2;
        a_b_2 -> join_0_2;
        join_0_2 -> back_slash_newline;
        back_slash_newline -> n_2nd;
        n_2nd -> join_0;
        join_0 -> start_x;
        start_x -> __end__;
      }
      "
    `);
  });

  // Graphviz is not a dependency of the project (CI does not install it): this check runs where a
  // developer has `dot`, and the escaping tests above cover the same text without it.
  const hasGraphviz = spawnSync("dot", ["-V"]).status === 0;
  it.skipIf(!hasGraphviz)("is read by Graphviz without a warning (runs where `dot` is installed)", () => {
    const { status, stdout: svg, stderr } = spawnSync("dot", ["-Tsvg"], { input: toDot(awkward), encoding: "utf8" });
    expect({ status, stderr }).toEqual({ status: 0, stderr: "" });
    expect(svg).toContain("say &quot;hi&quot;");
    expect(svg).toContain("&lt;b&gt;&amp;amp; #35; `c` | d");
    expect(svg).toContain("東京 🌸");
  });
});
