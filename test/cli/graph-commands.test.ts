/** `tsg diagram`, `tsg paths` and `tsg check` on a user's module (`FILE#EXPORT`), JavaScript and TypeScript. */
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/run-cli.js";
import { loadGraph } from "../../src/cli/graph-source.js";
import { UsageError } from "../../src/cli/io.js";

const fixtures = relative(process.cwd(), join(import.meta.dirname, "fixtures"));
const module = (file: string, name?: string) => `./${join(fixtures, file)}${name === undefined ? "" : `#${name}`}`;

async function tsg(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await runCli(argv, { stdout: { write: (t: string) => (out += t) }, stderr: { write: (t: string) => (err += t) } });
  return { code, out, err };
}

describe("tsg check", () => {
  it.each(["report", "agent", "research"])("finds the example %s valid, exit 0", async (graph) => {
    const { code, out } = await tsg("check", graph);
    expect(code).toBe(0);
    expect(out).toMatch(new RegExp(`^${graph}: valid \\(\\d+ nodes(, at most \\d+ supersteps a run)?\\)(\\n  - unbounded cycle .*)*\\n$`));
  });

  it("lists a valid graph's cycles that cross no loop bound, also as JSON", async () => {
    const { code, out } = await tsg("check", "report");
    expect(code).toBe(0);
    expect(out).toContain(`\n  - unbounded cycle (only recursionLimit stops it): "check_draft", "revise_draft"\n`);
    const report = JSON.parse((await tsg("check", "research", "--json")).out) as {
      unboundedCycles: string[][];
      superstepBound: number | null;
    };
    expect(report.unboundedCycles).toEqual([]);
    expect(report.superstepBound).toBeGreaterThan(0);
    const withCycle = JSON.parse((await tsg("check", "report", "--json")).out) as { superstepBound: number | null };
    expect(withCycle.superstepBound).toBeNull();
  });

  it("finds a module's compiled graph valid", async () => {
    expect(await tsg("check", module("graphs.mjs", "triage"))).toEqual({
      code: 0,
      out: `${module("graphs.mjs", "triage")}: valid (3 nodes, at most 2 supersteps a run)\n`,
      err: "",
    });
  });

  it("reads the default export without #EXPORT", async () => {
    expect((await tsg("check", module("graphs.mjs"))).code).toBe(0);
  });

  it("lists a builder's problems, exit 1", async () => {
    const { code, out, err } = await tsg("check", module("graphs.mjs", "draft"));
    expect({ code, err }).toEqual({ code: 1, err: "" });
    expect(out.split("\n")).toEqual([
      `${module("graphs.mjs", "draft")}: 2 problems`,
      '  - [NO_OUTGOING_RULE] Node "archive" has no outgoing edge. Add addEdge("archive", <next node or END>) or addConditionalEdges("archive", router, paths).',
      '  - [UNREACHABLE_NODE] Node "archive" is not reachable from START. Add an edge that leads to it, or remove it.',
      "",
    ]);
  });

  it("lists a spec's problems, as JSON with --json", async () => {
    const { code, out } = await tsg("check", module("graphs.mjs", "spec"), "--json");
    const report = JSON.parse(out) as { valid: boolean; problems: { code: string }[] };
    expect(code).toBe(1);
    expect(report.valid).toBe(false);
    expect(report.problems.map((p) => p.code)).toEqual(["MISSING_START_EDGE", "UNREACHABLE_NODE"]);
  });

  it("adds the state's JSON Schema with --json: a graph declared with a zod schema, null without one", async () => {
    const declared = JSON.parse((await tsg("check", module("schema-graph.ts", "ticket"), "--json")).out) as { stateSchema: unknown };
    expect(declared.stateSchema).toMatchObject({
      type: "object",
      properties: { amount: { type: "number" }, resolved: { type: "boolean" } },
      required: ["amount", "resolved"],
    });
    const plain = JSON.parse((await tsg("check", module("graphs.mjs", "triage"), "--json")).out) as { stateSchema: unknown };
    expect(plain.stateSchema).toBeNull();
  });

  it("lists the problems of a module whose top level throws GraphValidationError", async () => {
    const { code, out } = await tsg("check", module("throws-validation.mjs", "graph"));
    expect(code).toBe(1);
    expect(out).toContain('[UNREACHABLE_NODE] Node "b" is not reachable from START.');
  });

  it("loads TypeScript through tsx", async () => {
    expect(await tsg("check", module("graph.ts", "triage"))).toEqual({
      code: 0,
      out: `${module("graph.ts", "triage")}: valid (2 nodes, at most 2 supersteps a run)\n`,
      err: "",
    });
  });
});

describe("a module that cannot be read: one message, exit 2, no stack", () => {
  it.each([
    [[module("missing.mjs", "x")], /^tsg check: cannot find the module \.\/.*missing\.mjs \(looked for \/.*missing\.mjs\)\.\n/],
    [
      [module("graphs.mjs", "nope")],
      /has no export "nope"; it exports answer, default, draft, spec, triage\. Export the compiled graph under that name \(export const nope = builder\.compile\(\)\), or name another export after "#"\.\n/,
    ],
    [
      [module("explore.mjs")],
      /has no export "default"; it exports exploration, triage\. Export the compiled graph under that name \(export default builder\.compile\(\)\)/,
    ],
    [
      [module("graphs.mjs", "answer")],
      /#answer is not a graph: export a compiled graph \(builder\.compile\(\)\), a StateGraph builder, or a GraphSpec; got number\.\n/,
    ],
    [[module("throws.mjs")], /failed to load: the module's own failure\n/],
    [[`${module("graphs.mjs")}#`], /must be FILE#EXPORT, e\.g\. \.\/dist\/graph\.js#triage\.\n/],
  ])("tsg check %j", async (argv, message) => {
    const { code, out, err } = await tsg("check", ...argv);
    expect({ code, out }).toEqual({ code: 2, out: "" });
    expect(err).toMatch(message);
    expect(err.endsWith("Run `tsg check --help` for the options.\n")).toBe(true);
    expect(err).not.toMatch(/\n\s+at /);
  });

  it("without tsx, TypeScript is refused with the install command", async () => {
    const missing = () => import("tsx-is-not-installed-here" as string);
    await expect(loadGraph(module("graph.ts", "triage"), { tsx: missing })).rejects.toThrow(
      new UsageError(
        "loading TypeScript needs tsx, which is not installed: npm install --save-dev tsx. Or point tsg at the compiled .js file.",
      ),
    );
  });
});

describe("tsg diagram and tsg paths on a module", () => {
  it("draws a module's graph", async () => {
    const { code, out } = await tsg("diagram", module("graphs.mjs", "triage"));
    expect(code).toBe(0);
    expect(out).toContain('classify -->|"urgent"| escalate\n');
  });

  it("plans a module's graph, --via xstate too", async () => {
    for (const via of ["linear", "xstate"]) {
      const { code, out } = await tsg("paths", module("graphs.mjs", "triage"), "--via", via);
      expect(code).toBe(0);
      expect(out).toBe("START → classify [urgent] → escalate → END\nSTART → classify [routine] → reply → END\ncovers 5/5 transitions\n");
    }
  });

  it("plans the research example (a fan-out and a join), by runs", async () => {
    expect(await tsg("paths", "research")).toEqual({
      code: 0,
      out: "START → plan → {web, papers, internal} → synthesize → END\ncovers 8/8 transitions\n",
      err: "",
    });
  });

  it.each(["diagram", "paths"])("tsg %s refuses a graph that does not validate, pointing at tsg check", async (command) => {
    const { code, err } = await tsg(command, module("graphs.mjs", "draft"));
    expect(code).toBe(2);
    expect(err).toBe(
      `tsg ${command}: ${module("graphs.mjs", "draft")} does not validate (2 problems); tsg check ${module("graphs.mjs", "draft")} lists them.\n` +
        `Run \`tsg ${command} --help\` for the options.\n`,
    );
  });
});
