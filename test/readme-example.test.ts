/**
 * The README's example, verbatim between the markers; the tests check the README still shows it, and that its two
 * commands are the ones CI runs (.ci/run).
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { expect, it } from "vitest";
// README-EXAMPLE-START
import { stateGraph, START, END, append } from "../src/index.js";

interface Brief { readings: number[]; draft: string | null; revisions: number; events: string[] }

const graph = stateGraph<Brief>()({ reducers: { events: append } })
  .addNode("collect", () => ({ readings: [18, 12], events: ["collected"] }))
  .addNode("write", (s) => ({ draft: s.readings.join(", "), events: ["wrote draft"] }))
  .addNode("revise", (s) => ({ draft: `${s.draft} (checked)`, revisions: s.revisions + 1, events: ["revised"] }))
  .addEdge(START, "collect")
  .addEdge("collect", "write")
  .addConditionalEdges("write", (s) => (s.revisions < 1 ? "revise" : "done"), { revise: "revise", done: END })
  .addEdge("revise", END)
  .compile();

const { state, trace } = await graph.invoke({ readings: [], draft: null, revisions: 0, events: [] });
// trace: ["collect", "write", "revise"]; state.events: ["collected", "wrote draft", "revised"]
// README-EXAMPLE-END

it("runs as the README says", () => {
  expect(trace).toEqual(["collect", "write", "revise"]);
  expect(state.events).toEqual(["collected", "wrote draft", "revised"]);
});

it("is the code the README shows", () => {
  const readme = readFileSync(resolve(import.meta.dirname, "../README.md"), "utf8");
  const self = readFileSync(import.meta.filename, "utf8");
  const example = self
    .slice(self.indexOf("// README-EXAMPLE-START\n") + "// README-EXAMPLE-START\n".length, self.indexOf("// README-EXAMPLE-END"))
    .replace("../src/index.js", "typed-state-graph");
  const shown = readme.slice(readme.indexOf("## Example\n```ts\n") + "## Example\n```ts\n".length, readme.indexOf("```", readme.indexOf("## Example\n```ts\n") + 20));
  const withoutCounterexamples = shown.split("\n").filter((line) => !line.startsWith("// .")).join("\n");
  expect(withoutCounterexamples.trim()).toBe(example.trim());
});

it("shows the two commands CI runs, in CI's order: npm ci (then the main example), npm test", () => {
  const readme = readFileSync(resolve(import.meta.dirname, "../README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Two commands"));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
  const shown = block
    .split("\n")
    .map((line) => line.replace(/#.*$/, "").trim())
    .filter((line) => line !== "");
  expect(shown).toEqual(["npm ci && npx tsg report", "npm test"]);
  const ci = readFileSync(resolve(import.meta.dirname, "../.ci/run"), "utf8")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => /^npm (ci|test)$/.test(line));
  expect(ci).toEqual(["npm ci", "npm test"]);
});
