import { describe, expect, it } from "vitest";
import { runPathsCommand } from "../../src/cli/paths.js";
import { runCli } from "../../src/cli/run-cli.js";

async function paths(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await runPathsCommand(argv, { stdout: { write: (t: string) => (out += t) }, stderr: { write: (t: string) => (err += t) } });
  return { code, out, err };
}

describe("tsg paths", () => {
  it("prints one line per path of the report graph, then how many transitions they cover", async () => {
    expect(await paths("report")).toEqual({
      code: 0,
      out: [
        "START → collect → write_draft → check_draft [accept] → publish → END",
        "START → collect → write_draft → check_draft [revise] → revise_draft → check_draft [accept] → publish → END",
        "START → collect → write_draft → check_draft [hold] → hold → END",
        "covers 9/9 transitions",
        "",
      ].join("\n"),
      err: "",
    });
  });

  it("prints XState's plan with --via xstate", async () => {
    const { code, out } = await paths("report", "--via", "xstate");
    expect(code).toBe(0);
    expect(out.split("\n").filter((line) => line.startsWith("START"))).toHaveLength(4);
    expect(out).toContain("check_draft [revise] → revise_draft → check_draft [hold] → hold → END\n");
    expect(out.endsWith("covers 9/9 transitions\n")).toBe(true);
  });

  it("plans the agent graph", async () => {
    expect((await paths("agent")).out).toBe(
      [
        "START → model [end] → END",
        "START → model [tools] → tools [end] → END",
        "START → model [tools] → tools [model] → model [end] → END",
        "covers 5/5 transitions",
        "",
      ].join("\n"),
    );
  });

  it("prints the plan as JSON with --json", async () => {
    const { code, out } = await paths("agent", "--json");
    const plan = JSON.parse(out) as {
      graph: string;
      via: string;
      paths: { name: string; trace: string[] }[];
      covered: number;
      total: number;
    };
    expect(code).toBe(0);
    expect(plan).toMatchObject({ graph: "agent", via: "linear", covered: 5, total: 5 });
    expect(plan.paths.map((p) => p.name)).toEqual(["end", "tools → end", "tools → model → end"]);
    expect(plan.paths[2]?.trace).toEqual(["model", "tools", "model"]);
  });

  it("is registered as `tsg paths`", async () => {
    let out = "";
    const code = await runCli(["paths", "agent"], { stdout: { write: (t: string) => (out += t) }, stderr: { write: () => true } });
    expect([code, out.endsWith("covers 5/5 transitions\n")]).toEqual([0, true]);
  });

  it.each([
    [
      [],
      "name one GRAPH (report, agent, research, or a module's export: ./dist/graph.js#triage (TypeScript with tsx installed)); got none.",
    ],
    [["reprot"], 'unknown graph "reprot": name an example (report, agent, research) or a module\'s export, e.g. ./dist/graph.js#triage.'],
    [
      ["report", "agent"],
      'name one GRAPH (report, agent, research, or a module\'s export: ./dist/graph.js#triage (TypeScript with tsx installed)); got "report" "agent".',
    ],
    [["report", "--via", "dfs"], '--via must be one of linear, xstate, @xstate/graph; got "dfs".'],
  ])("exits 2 with a usage message for %j", async (argv, message) => {
    expect(await paths(...argv)).toEqual({ code: 2, out: "", err: `tsg paths: ${message}\nRun \`tsg paths --help\` for the options.\n` });
  });

  it("shows its help", async () => {
    const { code, out } = await paths("--help");
    expect(code).toBe(0);
    expect(out).toMatch(/^Usage: tsg paths GRAPH \[options\]/);
  });
});
