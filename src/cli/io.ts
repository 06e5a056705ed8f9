import { GraphError } from "../index.js";

/** Where a command writes: injectable so tests capture output without spawning a process. */
export interface CliIO {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
}

/** A `tsg` subcommand. */
export interface Command {
  readonly summary: string;
  /** The `--help` text. */
  readonly usage: string;
  run(argv: readonly string[], io: CliIO): Promise<number>;
}

/**
 * Bad arguments, or input the command cannot use (an unknown thread, a missing file): the command
 * prints the message, then the pointer to `--help`, and exits with code 2.
 *
 * @example
 * ```ts
 * throw new UsageError("--thread T is required.");
 * ```
 */
export class UsageError extends GraphError<"EARG"> {
  override readonly name = "UsageError";

  constructor(message: string, options?: { readonly cause?: unknown }) {
    super("EARG", message, options);
  }
}
