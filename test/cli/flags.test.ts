/**
 * A flag is declared once: its type, choices, bounds and default give the parsing, the validation, the
 * value a command receives (typed, never `undefined` when there is a default) and its --help row.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import { defineCommand, usageText, type CommandDefinition } from "../../src/cli/command.js";
import { checkFlagTable, flagValues, type FlagValues } from "../../src/cli/flags.js";
import type { REPORT_FLAGS } from "../../src/cli/report.js";
import { runCli } from "../../src/cli/run-cli.js";

const FLAGS = {
  format: { type: "choice", choices: ["mermaid", "dot"], description: "the format", default: "mermaid" },
  via: { type: "choice", choices: ["linear", "xstate"], description: "who plans" },
  steps: { type: "integer", min: 1, description: "steps allowed", default: 30 },
  limit: { type: "integer", min: 0, description: "a limit", defaultHelp: "none" },
  tags: { type: "choice", choices: ["a", "b"], description: "tags", multiple: true },
  name: { type: "string", valueHint: "NAME", description: "a name", default: "world" },
  loud: { type: "boolean", description: "in capitals" },
} as const;

const seen: FlagValues<typeof FLAGS>[] = [];
const definition: CommandDefinition<typeof FLAGS> = {
  name: "demo",
  summary: "a demo",
  description: "Shows the flags it received.",
  flags: FLAGS,
  exitCodes: "0 shown, 2 bad arguments.",
  run: async ({ flags }) => (seen.push(flags), 0),
};

async function demo(...argv: string[]): Promise<{ code: number; err: string; flags: FlagValues<typeof FLAGS> | undefined }> {
  seen.length = 0;
  let err = "";
  const quiet = { write: () => true };
  const code = await runCli(
    ["demo", ...argv],
    { stdout: quiet, stderr: { write: (t: string) => (err += t) } },
    {
      commands: { demo: defineCommand(definition) },
    },
  );
  return { code, err, flags: seen[0] };
}

describe("a flag table", () => {
  it("gives each flag its typed value, or its default when it is not given", async () => {
    expect((await demo()).flags).toEqual({
      format: "mermaid",
      via: undefined,
      steps: 30,
      limit: undefined,
      tags: undefined,
      name: "world",
      loud: false,
    });
    expect((await demo("--format", "dot", "--via", "xstate", "--steps", "3", "--tags", "a", "--tags", "b", "--loud")).flags).toMatchObject({
      format: "dot",
      via: "xstate",
      steps: 3,
      tags: ["a", "b"],
      loud: true,
    });
  });

  it("types the values from the declaration: the choices, a number, never undefined with a default", () => {
    expectTypeOf<FlagValues<typeof FLAGS>["format"]>().toEqualTypeOf<"mermaid" | "dot">();
    expectTypeOf<FlagValues<typeof FLAGS>["via"]>().toEqualTypeOf<"linear" | "xstate" | undefined>();
    expectTypeOf<FlagValues<typeof FLAGS>["steps"]>().toEqualTypeOf<number>();
    expectTypeOf<FlagValues<typeof FLAGS>["limit"]>().toEqualTypeOf<number | undefined>();
    expectTypeOf<FlagValues<typeof FLAGS>["tags"]>().toEqualTypeOf<("a" | "b")[] | undefined>();
    expectTypeOf<FlagValues<typeof FLAGS>["loud"]>().toEqualTypeOf<boolean>();
    expectTypeOf<FlagValues<typeof REPORT_FLAGS>["draft-style"]>().toEqualTypeOf<"missing-notice" | "complete" | "stubborn">();
  });

  it.each([
    [["--format", "svg"], 'tsg demo: --format must be one of mermaid, dot; got "svg".'],
    [["--tags", "a", "--tags", "c"], 'tsg demo: --tags must be one of a, b; got "c".'],
    [["--steps", "0"], 'tsg demo: --steps must be an integer ≥ 1; got "0".'],
    [["--limit", "1.5"], 'tsg demo: --limit must be an integer ≥ 0; got "1.5".'],
  ])("refuses %j with exit 2, naming the flag and its rule", async (argv, message) => {
    const { code, err, flags } = await demo(...argv);
    expect({ code, flags }).toEqual({ code: 2, flags: undefined });
    expect(err).toBe(`${message}\nRun \`tsg demo --help\` for the options.\n`);
  });

  it("writes the help rows from the declaration: the choices as the value hint, the default", () => {
    expect(usageText(definition).split("\n").slice(4, 12)).toEqual([
      "Options:",
      "  --format mermaid|dot  the format (default: mermaid)",
      "  --via linear|xstate   who plans",
      "  --steps N             steps allowed (default: 30)",
      "  --limit N             a limit (default: none)",
      "  --tags a|b            tags (repeatable)",
      "  --name NAME           a name (default: world)",
      "  --loud                in capitals",
    ]);
  });

  it("refuses a declaration whose default breaks its own rule, when the command is defined", () => {
    expect(() => checkFlagTable("demo", { f: { type: "choice", choices: ["a"], default: "b", description: "" } })).toThrow(
      expect.objectContaining({
        name: "InvalidOptionError",
        code: "INVALID_ARGUMENT",
        message: 'tsg demo: the default of --f does not satisfy its own declaration: "b" is not one of a. Fix the command\'s flag table.',
      }),
    );
    expect(() => checkFlagTable("demo", { n: { type: "integer", min: 1, default: 0, description: "" } })).toThrow(
      expect.objectContaining({
        code: "INVALID_ARGUMENT",
        message: expect.stringContaining("--n does not satisfy its own declaration: 0 is not an integer ≥ 1"),
      }),
    );
    expect(flagValues({ n: { type: "integer", min: 1, default: 5, description: "" } }, {})).toEqual({ n: 5 });
  });
});
