/** Every engine prints the same output for the same command: the output names no engine and no timing. */
import { describe, expect, it } from "vitest";
import { runAgentCommand } from "../../src/cli/agent.js";
import { runReportCommand } from "../../src/cli/report.js";
import { RESEARCH_ENGINES, runResearchCommand } from "../../src/cli/research.js";
import type { CliIO } from "../../src/cli/io.js";

async function capture(run: (io: CliIO) => Promise<number>) {
  let stdout = "";
  let stderr = "";
  const code = await run({ stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) } });
  return { code, stdout, stderr };
}

describe("tsg agent --engine", () => {
  it.each([
    ["--task", "convert", "--show-updates"],
    ["--task", "weather", "--max-model-steps", "1"],
    ["--task", "greet", "--language", "zh-CN"],
    ["--city", "Paris", "--max-tool-calls", "0"],
  ])("xstate and langgraph print exactly what mini prints: %s %s", async (...argv) => {
    const mini = await capture((io) => runAgentCommand([...argv, "--engine", "mini"], io));
    for (const engine of ["xstate", "langgraph"]) {
      const other = await capture((io) => runAgentCommand([...argv, "--engine", engine], io));
      expect(other).toEqual(mini);
    }
  });

  it("rejects an engine that does not exist, naming the ones that do", async () => {
    const { code, stderr } = await capture((io) => runAgentCommand(["--engine", "temporal"], io));
    expect(code).toBe(2);
    expect(stderr).toContain("--engine must be one of mini, xstate, langgraph");
  });
});

describe("tsg research --engine", () => {
  it("accepts xstate, which runs parallel graphs in its superstep layout", () => {
    expect(RESEARCH_ENGINES).toContain("xstate");
  });

  it.each([[[]], [["--show-updates"]], [["--topic", "the Hanseatic League", "--show-updates"]], [["--topic", "glaciers"]]])(
    "xstate (and every other engine it accepts) prints exactly what mini prints: %j",
    async (argv) => {
      const mini = await capture((io) => runResearchCommand([...argv, "--engine", "mini"], io));
      expect(mini.code).toBe(0);
      expect(mini.stdout).toContain("findings: 5");
      for (const engine of RESEARCH_ENGINES.filter((e) => e !== "mini")) {
        const other = await capture((io) => runResearchCommand([...argv, "--engine", engine], io));
        expect(other, engine).toEqual(mini);
      }
    },
  );

  it("rejects an engine it does not accept, naming the ones it does", async () => {
    const { code, stderr } = await capture((io) => runResearchCommand(["--engine", "temporal"], io));
    expect(code).toBe(2);
    expect(stderr).toContain(`--engine must be one of ${RESEARCH_ENGINES.join(", ")}`);
    expect(stderr).toContain("mini, xstate");
  });
});

describe("tsg report --engine", () => {
  it.each([
    ["--show-updates"],
    ["--draft-style", "stubborn", "--max-revisions", "2"],
    ["--draft-style", "complete", "--cities", "Paris", "--celsius-only", "--language", "zh-CN"],
    ["--max-steps", "2"],
    ["--max-steps", "6"],
  ])("xstate and langgraph print exactly what mini prints: %s", async (...argv) => {
    const mini = await capture((io) => runReportCommand([...argv, "--engine", "mini"], io));
    for (const engine of ["xstate", "langgraph"]) {
      expect(await capture((io) => runReportCommand([...argv, "--engine", engine], io))).toEqual(mini);
    }
  });
});
