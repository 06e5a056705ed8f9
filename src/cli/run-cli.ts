/** The `tsg` command: one file per subcommand, dispatched here. */
import { commands } from "./commands.js";
import type { CliIO } from "./io.js";

const usage = (): string =>
  ["Usage: tsg <command> [options]", "", "Commands:", ...Object.entries(commands).map(([name, c]) => `  ${name.padEnd(10)} ${c.summary}`), "", "Run `tsg <command> --help` for a command's options."].join("\n");

/**
 * Runs `tsg` with the given arguments and resolves with the exit code: 0 success, 1 the run did not
 * succeed (held, no answer, step limit), 2 bad arguments.
 *
 * @example
 * ```ts
 * const code = await runCli(["report", "--draft-style", "complete"], { stdout: process.stdout, stderr: process.stderr });
 * ```
 */
export async function runCli(argv: readonly string[], io: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    io.stdout.write(usage() + "\n");
    return name === undefined ? 2 : 0;
  }
  const command = commands[name];
  if (command === undefined) {
    io.stderr.write(`tsg: unknown command "${name}".\n${usage()}\n`);
    return 2;
  }
  return command.run(rest, io);
}
