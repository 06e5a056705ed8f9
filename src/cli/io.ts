/** Where a command writes: injectable so tests capture output without spawning a process. */
export interface CliIO {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
}

/** A `tsg` subcommand. */
export interface Command {
  readonly summary: string;
  run(argv: readonly string[], io: CliIO): Promise<number>;
}

/** Bad arguments: the command prints the message and exits with code 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";
  readonly code = "EARG" as const;
}
