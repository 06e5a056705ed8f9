import { describe, expect, it } from "vitest";
import { runResearchCommand } from "../../src/cli/research.js";

async function run(argv: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await runResearchCommand(argv, {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
  });
  return { code, stdout, stderr };
}

describe("tsg research", () => {
  it("prints the findings and the summary, exit 0", async () => {
    const { code, stdout, stderr } = await run(["--topic", "tides"]);
    expect(code).toBe(0);
    expect(stderr).toBe("");
    expect(stdout.split("\n").slice(0, 3)).toEqual(["topic: tides", "findings: 5", "- web: tides explained for travellers"]);
    expect(stdout).toContain("5 findings on tides:");
  });

  it("--show-updates prints one line per node, in declaration order within a superstep", async () => {
    const { stdout } = await run(["--show-updates"]);
    expect(stdout.split("\n").slice(0, 5)).toEqual([
      "plan updated: queries",
      "web updated: findings",
      "papers updated: findings",
      "internal updated: findings",
      "synthesize updated: summary",
    ]);
  });

  it.each([
    [["--engine", "langchain"], /--engine must be one of mini/],
    [["--topic", "  "], /--topic must be non-blank text; got " {2}"\./],
    [["--depth", "3"], /Unknown option '--depth'/],
  ])("rejects %j with exit 2", async (argv, message) => {
    const { code, stderr } = await run(argv);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
  });
});
