/**
 * One table declares a command: its flags (flags.ts: type, choices, bounds, default, help), its
 * positional argument, its notes and exit codes. The same table drives parsing (`node:util` parseArgs,
 * strict), validation, the typed values the command receives, and the `--help` text, so usage and
 * parsing cannot drift.
 *
 * Why not citty (0.2.2, no dependencies, whose `ArgsDef` is the model): its parser accepts unknown
 * options and collects a repeated option into an array, where tsg promises (docs/cli.md, and its tests)
 * that an unknown option is exit 2 naming it, and that a repeated option takes its last value; its
 * `runMain` reports a failure with exit 1, where tsg's codes are 2 for bad arguments and 70 for a bug.
 * Keeping those promises on citty would mean wrapping its parser in the checks this table already makes,
 * so tsg keeps its own table with citty's properties: typed defaults and choices declared once, parsing,
 * validation and usage generated from them.
 */
import { parseArgs } from "node:util";
import { checkFlagTable, flagValues, helpRow, parseArgsOptions, type FlagDef, type FlagTable, type FlagValues } from "./flags.js";
import { UsageError, type CliIO, type Command } from "./io.js";
import { cutLines, quote } from "../inspect/echo.js";

export type { FlagDef, FlagTable, FlagValues } from "./flags.js";

/** A command's one positional argument (a graph name or module). */
export interface PositionalDef {
  /** Its placeholder in the usage line, e.g. `GRAPH`. */
  readonly name: string;
  readonly description: string;
  /** The value when the argument is left out; without one, the argument is required. */
  readonly default?: string;
}

/** What a command's body receives. */
export interface CommandInput<F extends FlagTable> {
  readonly flags: FlagValues<F>;
  /** The positional argument, for a command that declares one (always present: required, or its default). */
  readonly positional: string;
}

/** A command, declared once. */
export interface CommandDefinition<F extends FlagTable> {
  readonly name: string;
  /** One line, for `tsg --help` and docs/cli.md's command table. */
  readonly summary: string;
  /** The paragraph under the usage line. */
  readonly description: string;
  readonly positional?: PositionalDef;
  readonly flags: F;
  /** Text after the options (credentials, a rendering hint). */
  readonly notes?: string;
  /** The exit codes, as one sentence after `Exit codes: `. */
  readonly exitCodes: string;
  /**
   * Runs the command and resolves with its exit code. A {@link UsageError} thrown here exits with 2,
   * its message followed by the pointer to `--help`.
   */
  run(input: CommandInput<F>, io: CliIO): Promise<number>;
}

const HELP: FlagDef = { type: "boolean", description: "show this help" };

/**
 * Turns a command table into a {@link Command}: strict parsing, `--help`, and one way to report bad
 * arguments (exit 2, the message, then ``Run `tsg <command> --help` for the options.``).
 *
 * @example
 * ```ts
 * const hello = defineCommand({
 *   name: "hello", summary: "greet", description: "Greets someone.", exitCodes: "0 greeted.",
 *   flags: { name: { type: "string", valueHint: "NAME", description: "who to greet", default: "world" } },
 *   run: async ({ flags }, io) => (io.stdout.write(`hello ${flags.name ?? "world"}\n`), 0),
 * });
 * ```
 */
export function defineCommand<const F extends FlagTable>(definition: CommandDefinition<F>): Command {
  checkFlagTable(definition.name, definition.flags);
  const usage = usageText(definition);
  return {
    summary: definition.summary,
    usage,
    async run(argv, io) {
      try {
        const input = parseCommandLine(definition, argv);
        if (input === "help") {
          io.stdout.write(usage + "\n");
          return 0;
        }
        return await definition.run(input, io);
      } catch (error) {
        if (!(error instanceof UsageError)) throw error;
        io.stderr.write(`tsg ${definition.name}: ${cutLines(error.message)}\nRun \`tsg ${definition.name} --help\` for the options.\n`);
        return 2;
      }
    },
  };
}

function parseCommandLine<F extends FlagTable>(definition: CommandDefinition<F>, argv: readonly string[]): CommandInput<F> | "help" {
  const options = { ...parseArgsOptions(definition.flags), help: { type: "boolean", short: "h" } } as const;
  let parsed: { values: Record<string, unknown>; positionals: string[] };
  try {
    parsed = parseArgs({ args: [...argv], options, strict: true, allowPositionals: definition.positional !== undefined });
  } catch (error) {
    // parseArgs names the offending flag or argument: keep its words, drop its stack.
    const isParseError = error instanceof Error && String((error as { code?: unknown }).code).startsWith("ERR_PARSE_ARGS");
    if (isParseError) throw new UsageError(error.message.replaceAll("\n", " "));
    throw error;
  }
  if (parsed.values["help"] === true) return "help";
  const flags = flagValues(definition.flags, parsed.values);
  const { positional } = definition;
  if (positional === undefined) return { flags, positional: "" };
  if (parsed.positionals.length === 0 && positional.default !== undefined) return { flags, positional: positional.default };
  if (parsed.positionals.length !== 1) {
    const got = parsed.positionals.length === 0 ? "none" : parsed.positionals.map((p) => quote(p)).join(" ");
    throw new UsageError(`name one ${positional.name} (${positional.description}); got ${got}.`);
  }
  return { flags, positional: parsed.positionals[0] as string };
}

/**
 * The `--help` text of a command, generated from its table.
 *
 * @example
 * ```ts
 * usageText(definition).split("\n")[0]; // "Usage: tsg paths GRAPH [options]"
 * ```
 */
export function usageText(definition: CommandDefinition<FlagTable>): string {
  const rows: [string, string][] = Object.entries(definition.flags).map(([name, flag]) => helpRow(name, flag));
  rows.push(["-h, --help", HELP.description]);
  const width = Math.max(...rows.map(([left]) => left.length)) + 2;
  const { positional } = definition;
  return [
    `Usage: tsg ${definition.name}${positional === undefined ? "" : positional.default === undefined ? ` ${positional.name}` : ` [${positional.name}]`} [options]`,
    "",
    definition.description,
    ...(positional === undefined
      ? []
      : [
          "",
          "Arguments:",
          `  ${positional.name.padEnd(width)}${positional.description}${positional.default === undefined ? "" : ` (default: ${positional.default})`}`,
        ]),
    "",
    "Options:",
    ...rows.map(([left, right]) => `  ${left.padEnd(width)}${right}`),
    ...(definition.notes === undefined ? [] : ["", definition.notes]),
    "",
    `Exit codes: ${definition.exitCodes}`,
  ].join("\n");
}
