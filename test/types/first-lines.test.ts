/**
 * The first line a user reads (issue 35 §3): for each fixture, the first diagnostic `tsc` prints is at
 * the call that is wrong (the line marked `// ← here`), names the wrong name or value and the API that
 * fixes it, with no follow-on error before it, on TS 6 and on TS 7.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = process.cwd();
const work = join(root, "node_modules", ".cache", `first-lines-${process.pid}`);
const compilers = {
  "TS 6": join(root, "node_modules/typescript/bin/tsc"),
  "TS 7": join(root, "node_modules/typescript7/bin/tsc"),
} as const;

const header = `import { append, Command, defineInterrupt, END, Send, START, StateGraph, stateGraph } from "../../../src/index.js";
import { MemoryCheckpointer } from "../../../src/persistence/index.js";
interface S { count: number; docs: string[]; note: string | null; status: "idle" | "done" }
declare const lookup: Record<string, { n: number } | undefined>;
`;

/** name → [fixture (after the header), what the first line must say]. */
const FIXTURES: Record<string, readonly [string, string]> = {
  "a resume without a thread": [
    `const g = new StateGraph<S>().addNode("a", () => ({})).addEdge(START, "a").addEdge("a", END).compile();
void g.invoke(null); // ← here`,
    "invoke: without a threadId the input is the whole state; a partial state, null (resume) or a Command continues a thread, so pass { threadId, checkpointer }",
  ],
  "a misspelled edge, with no follow-on topology error before it": [
    `new StateGraph<S>()
  .addNode("write", () => ({}))
  .addNode("check", () => ({}))
  .addEdge(START, "write")
  .addEdge("wirte", "check") // ← here
  .addEdge("check", END)
  .compile();`,
    `addEdge: "wirte" is not a node of this builder`,
  ],
  "a Send payload with a misspelled field": [
    `stateGraph<S>()({ reducers: { docs: append } })
  .addNode("plan", () => ({}))
  .addNode("work", (input: { doc: string }) => ({ docs: [input.doc] }))
  .addEdge(START, "plan")
  .addConditionalEdges("plan", (s) => s.docs.map((d) => new Send("work", { dco: d })), ["work"])
  .addEdge("work", END); // ← here`,
    `the router for "plan" sends "work" a payload with "dco", which its input does not have`,
  ],
  "an interrupt payload that is not JSON": [
    `defineInterrupt<{ at: Date }, boolean>("when"); // ← here`,
    "defineInterrupt: the payload is not JSON, so it cannot be saved with the thread: payload.at has function-valued members",
  ],
  "a reducer for a field the state lacks": [
    `stateGraph<S>()({ reducers: { docs: append, dcos: append } }); // ← here`,
    `stateGraph: reducers names "dcos", which is not a field of the state`,
  ],
  "a parallel write of a field without a reducer": [
    `stateGraph<S>()({ reducers: { docs: append } })
  .addNode("a", () => ({ count: 1 }))
  .addNode("b", () => ({ count: 2 }))
  .addEdge(START, ["a", "b"]); // ← here`,
    `addEdge: "a" and "b" run in one superstep (a fan-out) and both write "count", which has no reducer`,
  ],
  "an asNode typo": [
    `const g = new StateGraph<S>().addNode("write", () => ({})).addEdge(START, "write").addEdge("write", END).compile();
void g.updateState("t", { count: 1 }, { asNode: "wirte", checkpointer: new MemoryCheckpointer() }); // ← here`,
    `Type '"wirte"' is not assignable to type '"__end__" | "write" | undefined'. Did you mean '"write"'?`,
  ],
  "a node returning a literal outside the field's type": [
    `new StateGraph<S>()
  .addNode("a", () => ({ status: "finished" })) // ← here
  .addEdge(START, "a")
  .addEdge("a", END);`,
    `addNode: node "a" returns a value for "status" that is not of the field's type; return a value of the state's type for "status"`,
  ],
  "undefined for a required field": [
    `new StateGraph<S>().addNode("a", () => ({ count: lookup["k"]?.n })); // ← here`,
    `addNode: node "a" can return undefined for "count", which the state requires; give a value, or leave the field out of the update`,
  ],
  "a route key missing from the path map, with no follow-on error": [
    `new StateGraph<S>()
  .addNode("a", () => ({}))
  .addNode("b", () => ({}))
  .addEdge(START, "a")
  .addConditionalEdges("a", (s) => (s.count > 1 ? "go" : "stop"), { go: "b" }) // ← here
  .addEdge("b", END)
  .compile();`,
    `addConditionalEdges: the router can return "stop", which the path map lacks; add it to the path map with its destination`,
  ],
  "an unbounded cycle under loops: \"bounded\"": [
    `stateGraph<S>()({ loops: "bounded" }) // ← here (TypeScript reports a compile() error at the chain's start)
  .addNode("a", () => ({}))
  .addNode("b", () => ({}))
  .addEdge(START, "a")
  .addEdge("a", "b")
  .addConditionalEdges("b", (s): "again" | "done" => (s.count > 1 ? "done" : "again"), { again: "a", done: END })
  .compile();`,
    `compile(): loops: "bounded", but the cycle through "a", "b" crosses no bounded node`,
  ],
  "a Command goto typed string": [
    `declare const next: string;
new StateGraph<S>()
  .addNode("a", () => new Command({ goto: next }), { ends: ["b"] }) // ← here
  .addNode("b", () => ({}));`,
    `addNode: node "a" returns a Command whose goto is typed string, which cannot be checked against its ends; type it as a union of names from its ends`,
  ],
};

/** compiler → fixture name → its first error: line (1-based, in the fixture) and text, quotes unescaped; and how many errors it has. */
const firstErrors = new Map<string, Map<string, { line: number; text: string; count: number }>>();

beforeAll(() => {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const files = Object.keys(FIXTURES).map((_, i) => `f${i}.ts`);
  Object.values(FIXTURES).forEach(([code], i) => writeFileSync(join(work, files[i] as string), header + code));
  writeFileSync(join(work, "tsconfig.json"), JSON.stringify({ extends: "../../../tsconfig.json", include: [], files }));
  for (const [name, tsc] of Object.entries(compilers)) {
    const run = spawnSync(process.execPath, [tsc, "-p", ".", "--pretty", "false"], { cwd: work, encoding: "utf8" });
    const byFixture = new Map<string, { line: number; text: string; count: number }>();
    for (const line of run.stdout.split("\n")) {
      const m = /^f(\d+)\.ts\((\d+),\d+\): (error TS\d+: .*)$/.exec(line);
      if (m === null) continue;
      const fixture = Object.keys(FIXTURES)[Number(m[1])] as string;
      const seen = byFixture.get(fixture);
      if (seen !== undefined) seen.count += 1;
      else
        byFixture.set(fixture, {
          line: Number(m[2]) - header.split("\n").length + 1,
          text: (m[3] as string).replaceAll('\\"', '"'),
          count: 1,
        });
    }
    firstErrors.set(name, byFixture);
  }
}, 180_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe.each(Object.keys(compilers))("the first error line on %s", (compiler) => {
  it.each(Object.entries(FIXTURES))("%s", (name, [code, says]) => {
    const first = firstErrors.get(compiler)?.get(name);
    const marked = code.split("\n").findIndex((line) => line.includes("// ← here")) + 1;
    expect(first?.text).toContain(says);
    expect(first?.line).toBe(marked);
    // A fixture named so promises no follow-on error at all, after the first either.
    if (name.endsWith("with no follow-on error")) expect(first?.count).toBe(1);
  });
});
