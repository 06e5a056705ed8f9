/** Every declared transition is drawn exactly once, in both formats, whatever the graph. */
import { test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import type { GraphSpec } from "../../src/index.js";
import { toDot } from "../../src/render/dot.js";
import { toMermaid } from "../../src/render/mermaid.js";
import { arbitraryGraphSpec } from "../../src/testing/index.js";
import { awkward, everyRule, examples } from "./_graphs.js";
import { declaredTransitions, drawnTransitions, readDot, readMermaid } from "./_read.js";

const sorted = (list: readonly string[]): string[] => [...list].sort();

const formats = [
  ["Mermaid", (spec: GraphSpec) => readMermaid(toMermaid(spec))],
  ["DOT", (spec: GraphSpec) => readDot(toDot(spec))],
] as const;

const specs: [string, GraphSpec][] = [
  ...Object.entries(examples).map(([name, build]): [string, GraphSpec] => [name, build().spec]),
  ["every rule", everyRule],
  ["awkward names", awkward],
];

describe.each(formats)("%s: every declared transition appears exactly once", (_format, read) => {
  it.each(specs)("%s", (_name, spec) => {
    const drawn = drawnTransitions(read(spec));
    expect(sorted(drawn)).toEqual(sorted(declaredTransitions(spec)));
    expect(new Set(drawn).size).toBe(drawn.length);
  });

  it.each(specs)("%s: one box per node, plus START, END and one junction per join", (_name, spec) => {
    const drawing = read(spec);
    const labels = [...drawing.nodes.values()].filter((node) => node.kind === "node").map((node) => node.label);
    expect(sorted(labels)).toEqual(sorted(spec.nodes));
    expect([...drawing.nodes.values()].map((node) => node.kind).filter((kind) => kind !== "node")).toEqual([
      "start",
      ...(spec.joins ?? []).map(() => "join"),
      "end",
    ]);
  });

  test.prop([arbitraryGraphSpec({ kind: "well-formed", maxNodes: 8 })], { numRuns: 200 })("random well-formed specs", (spec) => {
    expect(sorted(drawnTransitions(read(spec)))).toEqual(sorted(declaredTransitions(spec)));
  });
});
