/** Every engine prints the same output for the same command: the output names no engine and no timing. */
import { describe, expect, it } from "vitest";
import { runAgentCommand } from "../../src/cli/agent.js";
import { runResearchCommand } from "../../src/cli/research.js";
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
  it("accepts only engines that run parallel graphs", async () => {
    const { code, stderr } = await capture((io) => runResearchCommand(["--engine", "xstate"], io));
    expect(code).toBe(2);
    expect(stderr).toContain("--engine must be one of mini");
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
    const { runReportCommand } = await import("../../src/cli/report.js");
    const mini = await capture((io) => runReportCommand([...argv, "--engine", "mini"], io));
    for (const engine of ["xstate", "langgraph"]) {
      expect(await capture((io) => runReportCommand([...argv, "--engine", engine], io))).toEqual(mini);
    }
  });
});
