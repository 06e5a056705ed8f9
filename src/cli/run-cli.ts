/** The `tsg` command: one file per subcommand, dispatched here. */
import { readFileSync } from "node:fs";
import { commands } from "./commands.js";
import type { CliIO, Command } from "./io.js";
import { cut, LINE_LIMIT, quote } from "../inspect/echo.js";

/** The exit code of an unexpected internal error (sysexits' EX_SOFTWARE): a bug in tsg, not in the input. */
export const EXIT_INTERNAL = 70;

/** What `tsg` reads from its environment; tests pass their own. */
export interface CliEnvironment {
  /** `TSG_DEBUG=1` prints the stack of an internal error. Default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The command table. Default every `tsg` command; tests add one that fails. */
  readonly commands?: Readonly<Record<string, Command>>;
}

const usage = (table: Readonly<Record<string, Command>>): string =>
  [
    "Usage: tsg <command> [options]",
    "",
    "Commands:",
    ...Object.entries(table).map(([name, c]) => `  ${name.padEnd(10)} ${c.summary}`),
    "",
    "Run `tsg <command> --help` for a command's options. A repeated option takes its last value,",
    "unless its help says it is repeatable. `tsg --version` prints the version.",
  ].join("\n");

/**
 * Runs `tsg` with the given arguments and resolves with the exit code: 0 success, 1 the run did not
 * succeed (held, no answer, step limit), 2 bad arguments, 3 paused, 70 an internal error. It never
 * rejects and never prints a stack trace, unless `TSG_DEBUG=1`.
 *
 * @example
 * ```ts
 * const code = await runCli(["report", "--draft-style", "complete"], { stdout: process.stdout, stderr: process.stderr });
 * ```
 */
export async function runCli(argv: readonly string[], io: CliIO, environment: CliEnvironment = {}): Promise<number> {
  const [name, ...rest] = argv;
  const table = environment.commands ?? commands;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    io.stdout.write(usage(table) + "\n");
    return name === undefined ? 2 : 0;
  }
  if (name === "--version" || name === "-v") {
    io.stdout.write(`${packageVersion()}\n`);
    return 0;
  }
  const command = Object.hasOwn(table, name) ? table[name] : undefined;
  if (command === undefined) {
    io.stderr.write(`tsg: unknown command ${quote(name)}.\n${usage(table)}\n`);
    return 2;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    return internalError(name, error, io, environment.env ?? process.env);
  }
}

function internalError(name: string, error: unknown, io: CliIO, env: Readonly<Record<string, string | undefined>>): number {
  const message = describeThrown(error);
  const firstLine = message.split("\n")[0] ?? "";
  io.stderr.write(
    `tsg ${name}: internal error: ${cut(firstLine, LINE_LIMIT)}\n` +
      `This is a bug in tsg: please report it with the command you ran. Set TSG_DEBUG=1 to print the stack.\n`,
  );
  if (env["TSG_DEBUG"] === "1") io.stderr.write(`${error instanceof Error && error.stack !== undefined ? error.stack : message}\n`);
  return EXIT_INTERNAL;
}

/** What was thrown, as text, even when it is not an Error or its `toString` throws. */
function describeThrown(error: unknown): string {
  try {
    return error instanceof Error ? `${error.name}: ${error.message}` : `a thrown ${typeof error}: ${String(error)}`;
  } catch {
    return `a thrown ${typeof error} that cannot be printed`;
  }
}

/** The version in package.json (src/cli and dist/cli both sit two levels below it). */
function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
  return manifest.version;
}
