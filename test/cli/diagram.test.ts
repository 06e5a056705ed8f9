import { describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/run-cli.js";
import { exampleSpec, runDiagramCommand } from "../../src/cli/diagram.js";
import { toDot } from "../../src/render/dot.js";
import { toMermaid } from "../../src/render/mermaid.js";

async function run(argv: string[], via: "command" | "tsg" = "command") {
  let stdout = "";
  let stderr = "";
  const io = { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) } };
  const code = via === "tsg" ? await runCli(["diagram", ...argv], io) : await runDiagramCommand(argv, io);
  return { code, stdout, stderr };
}

describe("tsg diagram", () => {
  it.each(["report", "agent", "research"] as const)("prints the Mermaid flowchart of %s by default, exit 0", async (graph) => {
    const { code, stdout, stderr } = await run([graph], "tsg");
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    expect(stdout).toBe(toMermaid(exampleSpec(graph)));
  });

  it("--format dot prints Graphviz DOT", async () => {
    const { code, stdout } = await run(["research", "--format", "dot"]);
    expect(code).toBe(0);
    expect(stdout).toBe(toDot(exampleSpec("research")));
    expect(stdout).toMatch(/^digraph \{\n/);
  });

  it("--format json prints the spec, which parses back to the graph's spec", async () => {
    const { code, stdout } = await run(["--format", "json", "agent"]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual(exampleSpec("agent"));
  });

  it("--help prints the usage, exit 0", async () => {
    const { code, stdout } = await run(["--help"]);
    expect(code).toBe(0);
    expect(stdout).toContain("Usage: tsg diagram GRAPH [options]");
    expect(stdout).toContain("report, agent, research, or a module's export: ./dist/graph.js#triage");
    expect(stdout).toContain("Exit codes: 0 printed, 2 bad arguments");
  });

  it("is listed in tsg's usage", async () => {
    let stdout = "";
    await runCli(["--help"], { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: () => true } });
    expect(stdout).toMatch(/^ {2}diagram {4}print a graph as a Mermaid flowchart/m);
  });

  it.each([
    [[], /name one GRAPH \(report, agent, research, or a module's export.*\); got none/],
    [["report", "agent"], /name one GRAPH .*; got "report" "agent"/],
    [
      ["digest"],
      /unknown graph "digest": name an example \(report, agent, research\) or a module's export, e.g. \.\/dist\/graph\.js#triage/,
    ],
    [["report", "--format", "svg"], /--format must be one of mermaid, dot, json; got "svg"/],
    [["report", "--coverage"], /Unknown option '--coverage'/],
  ])("rejects %j with exit 2", async (argv, message) => {
    const { code, stdout, stderr } = await run(argv);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toMatch(message);
    expect(stderr).toContain("Run `tsg diagram --help` for the options.");
  });
});
