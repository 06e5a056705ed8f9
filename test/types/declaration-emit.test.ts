/**
 * A module that exports a builder or a compiled graph emits declarations under `declaration: true`
 * (issue 35 §4): no TS2742 (a type that cannot be named without a path into the package) and no TS7056
 * (a type too large to serialize), on TS 6 and TS 7. The module is compiled as a user's would be: against
 * the package's emitted declarations, installed in `node_modules` with its `exports` map.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = process.cwd();
const compilers = {
  "TS 6": join(root, "node_modules/typescript/bin/tsc"),
  "TS 7": join(root, "node_modules/typescript7/bin/tsc"),
} as const;

/** A user's module: a builder, compiled graphs of each declaration form, with reducers, Send, Command, an interrupt. */
const USER_MODULE = `import { append, Command, defineGraph, defineInterrupt, END, route, Send, START, StateGraph, stateGraph, type StateUpdate } from "typed-state-graph";

export interface Brief { topic: string; drafts: string[]; approved: boolean; events: string[] }

export const review = defineInterrupt<{ draft: string }, boolean>("review");

export const draft = (s: Brief): StateUpdate<Brief> => ({ drafts: [s.topic] });

export const builder = stateGraph<Brief>()({ reducers: { drafts: append, events: append } })
  .addNode("plan", (s) => ({ events: [\`plan \${s.topic}\`] }))
  .addNode("draft", draft)
  .addNode("write", (input: { part: string }) => ({ drafts: [input.part] }))
  .addNode("review", (s) => ({ approved: review({ draft: s.drafts.join("\\n") }) }))
  .addNode("route", (s) => new Command({ goto: s.approved ? END : "plan" }), { ends: ["plan", END] })
  .addEdge(START, "plan")
  .addConditionalEdges("plan", (s) => [new Send("write", { part: s.topic })], ["write"])
  .addEdge("write", "draft")
  .addEdge("draft", "review")
  .addEdge("review", "route");

export const graph = builder.compile();

export const plain = new StateGraph<{ n: number }>().addNode("inc", (s) => ({ n: s.n + 1 })).addEdge(START, "inc").addEdge("inc", END).compile();

export const defined = defineGraph<{ n: number }>()({
  nodes: { inc: (s) => ({ n: s.n + 1 }) },
  edges: [[START, "inc"]],
  routes: { inc: route((s: { n: number }) => (s.n < 3 ? "again" : "done"), { again: "inc", done: END }) },
});
`;

let work = "";

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "tsg-declaration-emit-"));
  // The package as installed: its declarations (emitted by TS 7, the fast one), its package.json and exports.
  const pkg = join(work, "pkg");
  const emit = spawnSync(
    process.execPath,
    [compilers["TS 7"], "-p", join(root, "tsconfig.build.json"), "--outDir", join(pkg, "dist"), "--emitDeclarationOnly", "--declarationMap", "false", "--sourceMap", "false"],
    { encoding: "utf8" },
  );
  expect(emit.status, `${emit.stdout}${emit.stderr}`).toBe(0);
  writeFileSync(join(pkg, "package.json"), readFileSync(join(root, "package.json")));
  symlinkSync(join(root, "node_modules"), join(pkg, "node_modules"), "dir");
  const user = join(work, "user");
  mkdirSync(join(user, "node_modules"), { recursive: true });
  symlinkSync(pkg, join(user, "node_modules", "typed-state-graph"), "dir");
  symlinkSync(join(root, "node_modules", "@types"), join(user, "node_modules", "@types"), "dir");
  writeFileSync(join(user, "package.json"), JSON.stringify({ type: "module" }));
  writeFileSync(join(user, "graph.ts"), USER_MODULE);
  writeFileSync(
    join(user, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "es2022",
        module: "nodenext",
        moduleResolution: "nodenext",
        strict: true,
        declaration: true,
        emitDeclarationOnly: true,
        outDir: "out",
        skipLibCheck: true,
        types: ["node"],
      },
      files: ["graph.ts"],
    }),
  );
}, 180_000);

afterAll(() => {
  if (work !== "") rmSync(work, { recursive: true, force: true });
});

describe("declarations of a module that exports a compiled graph", () => {
  it.each(Object.entries(compilers))("emit without error on %s", (_name, tsc) => {
    const run = spawnSync(process.execPath, [tsc, "-p", ".", "--pretty", "false"], { cwd: join(work, "user"), encoding: "utf8" });
    expect(`${run.stdout}${run.stderr}`).toBe("");
    const emitted = readFileSync(join(work, "user", "out", "graph.d.ts"), "utf8");
    // Every type is named through the package's entry (no path into its files), the graph's with its node
    // names and its input type (the state itself, for a graph declared with an interface).
    const graph = /export declare const graph: import\("typed-state-graph"\)\.CompiledGraph<Brief, (.*), Brief>;/.exec(emitted);
    expect(graph?.[1]?.split(" | ").sort()).toEqual(['"draft"', '"plan"', '"review"', '"route"', '"write"']);
    expect(emitted).toMatch(/export declare const builder: import\("typed-state-graph"\)\.StateGraphBuilder<Brief, /);
    expect(emitted).not.toMatch(/typed-state-graph\/dist/);
  }, 120_000);
});
