/** Graphs the diagram tests draw: the examples, and specs with every kind of rule and awkward names. */
import { buildAgentGraph, ScriptedModel } from "../../src/examples/agent/index.js";
import { buildReportGraph } from "../../src/examples/report/index.js";
import { buildDigestGraph, buildResearchGraph } from "../../src/examples/research/index.js";
import { END, START, type GraphSpec } from "../../src/index.js";

export const examples = {
  report: () => buildReportGraph(),
  agent: () => buildAgentGraph(new ScriptedModel({ city: "Tokyo", task: "convert", language: "en" })),
  research: () => buildResearchGraph(),
  digest: () => buildDigestGraph(),
};

/** Every kind of rule: a fixed edge, a route, a fan-out, a join, and a route that may fan out. */
export const everyRule: GraphSpec = {
  nodes: ["plan", "a", "b", "merge", "pick", "x", "y"],
  edges: [
    { from: START, to: "plan" },
    { from: "merge", to: "pick" },
    { from: "x", to: END },
    { from: "y", to: END },
  ],
  fanOuts: [{ from: "plan", to: ["a", "b"] }],
  joins: [{ from: ["a", "b"], to: "merge" }],
  routes: [{ from: "pick", router: "choose", paths: { x: "x", y: "y", [END]: END }, sends: true }],
  reducers: [],
};

/** Names a diagram must not misread: quotes, brackets, entities, keywords, Unicode, clashing ids. */
export const awkwardNames = [
  'say "hi"',
  "[x] {y} (z)",
  "<b>&amp; #35; `c` | d",
  "end",
  "subgraph",
  "東京 🌸",
  "a-b",
  "a_b",
  "back\\slash\nnewline",
  "2nd",
  "join_0",
  "__start__x",
] as const;

/** A chain through every awkward name, with a route whose keys are awkward too, and a join. */
export const awkward: GraphSpec = {
  nodes: [...awkwardNames],
  edges: [
    { from: START, to: 'say "hi"' },
    { from: "[x] {y} (z)", to: "<b>&amp; #35; `c` | d" },
    { from: "end", to: "subgraph" },
    { from: "subgraph", to: "東京 🌸" },
    { from: "back\\slash\nnewline", to: "2nd" },
    { from: "2nd", to: "join_0" },
    { from: "join_0", to: "__start__x" },
    { from: "__start__x", to: END },
  ],
  fanOuts: [{ from: "東京 🌸", to: ["a-b", "a_b"] }],
  joins: [{ from: ["a-b", "a_b"], to: "back\\slash\nnewline" }],
  routes: [{ from: 'say "hi"', router: "r", paths: { 'k "1" | [2]': "[x] {y} (z)", "#35;": "end" } }],
  reducers: [],
};
