/**
 * `typed-state-graph/examples` (src/examples/index.ts): one flat entry with every name the three
 * examples export, which loads none of the optional peers (`openai`, `ai`, `@opentelemetry/api`) until a
 * live run asks for one. A child process hides the peers (test/examples/_hidden-peers.mjs) and imports it.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as examples from "../../src/examples/index.js";

const parts = {
  report: () => import("../../src/examples/report/index.js"),
  agent: () => import("../../src/examples/agent/index.js"),
  live: () => import("../../src/examples/agent/live/index.js"),
  aiSdk: () => import("../../src/examples/agent/ai-sdk/index.js"),
  research: () => import("../../src/examples/research/index.js"),
};

describe("typed-state-graph/examples", () => {
  it("exports every name of the five former example entries, under the same name and value", async () => {
    const flat: Record<string, unknown> = examples;
    const differ: string[] = [];
    for (const load of Object.values(parts)) {
      for (const [name, value] of Object.entries(await load())) if (flat[name] !== value) differ.push(name);
    }
    expect(Object.keys(flat)).toEqual(expect.arrayContaining(["buildReportGraph", "buildAgentGraph", "ScriptedModel", "AiSdkModel"]));
    expect(differ).toEqual([]);
  });

  it("loads and runs with openai, ai and @opentelemetry/api not installed; AiSdkModel asks for ai on its first request", () => {
    const here = import.meta.dirname;
    const output = execFileSync(
      process.execPath,
      ["--import", "tsx", "--import", join(here, "_hidden-peers.mjs"), join(here, "_load-examples.ts")],
      { encoding: "utf8" },
    );
    const result = JSON.parse(output) as { names: string[]; report: string; aiSdk: { name: string; code: string; message: string } };
    expect(result.names).toEqual(expect.arrayContaining(["buildReportGraph", "createLiveModel", "AiSdkModel"]));
    expect(result.report).toBe("completed");
    expect(result.aiSdk).toEqual({
      name: "LiveSetupError",
      code: "MISSING_SDK",
      message: 'AiSdkModel: live runs need the optional package "ai" (6.x). Install it with `npm install ai@6`.',
    });
  }, 60_000);
});
