/** Argument helpers shared by the `tsg` subcommands. */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { UsageError, type CliIO } from "./io.js";

/**
 * Parses a flag's integer value, or throws a {@link UsageError} that names the flag.
 *
 * @example
 * ```ts
 * parseIntegerFlag("--max-steps", "30", { min: 1 }); // 30
 * ```
 */
export function parseIntegerFlag(flag: string, value: string | undefined, { min }: { min: number }): number | undefined {
  if (value === undefined) return undefined;
  const parsed = /^-?\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(parsed) || parsed < min) {
    throw new UsageError(`${flag} must be an integer ≥ ${min}; got ${JSON.stringify(value)}.`);
  }
  return parsed;
}

/**
 * Checks a flag's value against its allowed choices.
 *
 * @example
 * ```ts
 * parseChoiceFlag("--language", "en", ["en", "zh-CN"] as const); // "en"
 * ```
 */
export function parseChoiceFlag<const C extends string>(flag: string, value: string | undefined, choices: readonly C[]): C | undefined {
  if (value === undefined) return undefined;
  if (!(choices as readonly string[]).includes(value)) {
    throw new UsageError(`${flag} must be one of ${choices.join(", ")}; got ${JSON.stringify(value)}.`);
  }
  return value as C;
}

/**
 * Parses a command's flags strictly (unknown flags and stray arguments are errors) and turns
 * `parseArgs`' errors into a {@link UsageError}, keeping its words (they name the flag) and dropping its stack.
 *
 * @example
 * ```ts
 * const { values } = parseCommandFlags(["--json"], { json: { type: "boolean" } });
 * ```
 */
export function parseCommandFlags<const O extends NonNullable<ParseArgsConfig["options"]>>(
  argv: readonly string[],
  options: O,
): ReturnType<typeof parseArgs<{ args: string[]; options: O; strict: true; allowPositionals: false }>> {
  try {
    return parseArgs({ args: [...argv], options, strict: true, allowPositionals: false });
  } catch (error) {
    const isParseError = error instanceof Error && String((error as { code?: unknown }).code).startsWith("ERR_PARSE_ARGS");
    if (isParseError) throw new UsageError(error.message);
    throw error;
  }
}

/**
 * Runs a command's argument parsing: resolves with what `prepare` returns, or with the exit code when the
 * arguments asked for help (0, after printing the usage) or were bad (2, after a message naming the
 * problem and pointing at `--help`).
 *
 * @example
 * ```ts
 * const request = prepareCommand("paths", USAGE, io, () => prepare(argv));
 * if (typeof request === "number") return request;
 * ```
 */
export function prepareCommand<T extends object>(name: string, usage: string, io: CliIO, prepare: () => T | "help"): T | number {
  let prepared: T | "help";
  try {
    prepared = prepare();
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`tsg ${name}: ${error.message}\nRun \`tsg ${name} --help\` for the options.\n`);
    return 2;
  }
  if (prepared !== "help") return prepared;
  io.stdout.write(usage + "\n");
  return 0;
}
