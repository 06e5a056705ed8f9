import { describe, expect, it } from "vitest";
import { runReportCommand } from "../../src/cli/report.js";
import { runCli } from "../../src/cli/run-cli.js";

async function report(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await runReportCommand(argv, { stdout: { write: (t: string) => (out += t) }, stderr: { write: (t: string) => (err += t) } });
  return { code, out, err };
}

const DEFAULT_OUTPUT = [
  "status: completed revisions: 1",
  "events: collected requested records -> wrote draft -> checked draft: missing_fixed_data_notice -> revised draft -> checked draft: accepted -> published brief",
  "Tokyo: 18.0°C / 64.4°F, cloudy.",
  "Paris: 12.0°C / 53.6°F, light rain.",
  "Fixed teaching data, not live weather.",
  "",
].join("\n");

describe("tsg report: outcomes and exit codes", () => {
  it("exits 0 and prints the summary and the brief when the brief is published", async () => {
    expect(await report()).toEqual({ code: 0, out: DEFAULT_OUTPUT, err: "" });
  });

  it("is registered as `tsg report`", async () => {
    let out = "";
    const code = await runCli(["report"], { stdout: { write: (t: string) => (out += t) }, stderr: { write: () => true } });
    expect([code, out]).toEqual([0, DEFAULT_OUTPUT]);
  });

  it("exits 1 when the brief is held, keeping the draft and printing no answer", async () => {
    const { code, out, err } = await report("--draft-style", "stubborn", "--max-revisions", "2");
    expect(code).toBe(1);
    expect(err).toBe("");
    expect(out.split("\n")).toEqual([
      "status: needs_attention revisions: 2",
      "events: collected requested records -> wrote draft -> checked draft: missing_fixed_data_notice -> revised draft -> " +
        "checked draft: missing_fixed_data_notice -> revised draft -> checked draft: missing_fixed_data_notice -> held draft: revision limit reached",
      "No approved brief. Last draft remains in state.",
      "",
    ]);
  });

  it("exits 1 when --max-steps 2 stops the run before check_draft, listing the completed nodes, with no stack trace", async () => {
    const { code, out, err } = await report("--max-steps", "2");
    expect(code).toBe(1);
    expect(out).toBe("stopped before: check_draft\ncompleted: collect -> write_draft\n");
    expect(err).toBe("");
    expect(out + err).not.toMatch(/\n\s+at /);
  });

  it("publishes with --draft-style complete --max-revisions 0", async () => {
    const { code, out } = await report("--draft-style", "complete", "--max-revisions", "0");
    expect(code).toBe(0);
    expect(out.split("\n")[0]).toBe("status: completed revisions: 0");
  });

  it("holds with --max-revisions 0 after checking the first draft", async () => {
    const { code, out } = await report("--max-revisions", "0");
    expect(code).toBe(1);
    expect(out).toContain(
      "events: collected requested records -> wrote draft -> checked draft: missing_fixed_data_notice -> held draft: revision limit reached\n",
    );
  });
});

describe("tsg report: the request flags", () => {
  it("--cities Paris --celsius-only prints one row without °F", async () => {
    const { code, out } = await report("--cities", "Paris", "--celsius-only");
    expect(code).toBe(0);
    expect(out.split("\n").slice(2)).toEqual(["Paris: 12.0°C, light rain.", "Fixed teaching data, not live weather.", ""]);
  });

  it("takes --cities comma-separated or repeated, in the given order", async () => {
    const listed = await report("--cities", "Paris,Tokyo");
    const repeated = await report("--cities", "Paris", "--cities", "Tokyo");
    expect(listed).toEqual(repeated);
    expect(listed.out).toMatch(/Paris: .*\nTokyo: /);
  });

  it("--language zh-CN prints the Chinese notice", async () => {
    const { out } = await report("--language", "zh-CN");
    expect(out).toContain("\n固定教学数据，不是实时天气。\n");
  });

  it("--engine mini prints exactly what the default prints", async () => {
    expect(await report("--engine", "mini")).toEqual(await report());
  });

  it("prints the same text on every run: no timings", async () => {
    const first = await report("--show-updates");
    expect(await report("--show-updates")).toEqual(first);
  });

  it("--help prints the options and exits 0", async () => {
    const { code, out } = await report("--help");
    expect(code).toBe(0);
    expect(out).toMatch(/^Usage: tsg report/);
    expect(out).toContain("--max-steps N");
  });
});

describe("tsg report --show-updates", () => {
  it("prints one sorted `<node> updated:` line per node from the same run, before the summary", async () => {
    const { code, out } = await report("--show-updates");
    expect(code).toBe(0);
    expect(out).toBe(
      [
        "collect updated: events, readings",
        "write_draft updated: draft, events, review",
        "check_draft updated: events, review",
        "revise_draft updated: draft, events, review, revisions",
        "check_draft updated: events, review",
        "publish updated: answer, events, status",
        "",
      ].join("\n") + DEFAULT_OUTPUT,
    );
  });

  it("prints the updates of the completed nodes before a step-limit stop", async () => {
    const { out } = await report("--show-updates", "--max-steps", "2");
    expect(out).toBe(
      "collect updated: events, readings\nwrite_draft updated: draft, events, review\nstopped before: check_draft\ncompleted: collect -> write_draft\n",
    );
  });
});

describe("tsg report: bad arguments exit 2 with a message naming the problem", () => {
  it.each<[string[], RegExp]>([
    [["--engine", "temporal"], /--engine must be one of mini, xstate, langgraph; got "temporal"/],
    [["--engine", "xstate", "--thread", "t1"], /--thread runs on the mini engine/],
    [["--bogus"], /Unknown option '--bogus'/],
    [["--cities", "Rome"], /cities contains "Rome"/],
    [["--cities", "Tokyo,Tokyo"], /cities lists "Tokyo" twice/],
    [["--cities", "Tokyo,Paris,Tokyo"], /cities must list one or two/],
    [["--cities", "Tokyo,"], /--cities must list city names separated by commas/],
    [["--language", "fr"], /--language must be one of en, zh-CN; got "fr"/],
    [["--language"], /--language/],
    [["--draft-style", "lazy"], /--draft-style must be one of missing-notice, complete, stubborn; got "lazy"/],
    [["--max-revisions", "x"], /--max-revisions must be an integer ≥ 0; got "x"/],
    [["--max-revisions=-1"], /--max-revisions must be an integer ≥ 0; got "-1"/],
    [["--max-steps", "0"], /--max-steps must be an integer ≥ 1; got "0"/],
    [["--celsius-only=yes"], /--celsius-only/],
    [["Tokyo"], /Unexpected argument 'Tokyo'/],
  ])("%j", async (argv, message) => {
    const { code, out, err } = await report(...argv);
    expect(code).toBe(2);
    expect(out).toBe("");
    expect(err).toMatch(/^tsg report: /);
    expect(err).toMatch(message);
    expect(err).not.toMatch(/\n\s+at /);
  });
});
