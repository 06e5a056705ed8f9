/** `tsg history`: lists a thread's checkpoints, newest first. */
import { DEFAULT_DB_FILE, PersistenceError, type Checkpoint } from "../persistence/index.js";
import { UsageError, type CliIO, type Command } from "./io.js";
import { parseCommandFlags } from "./options.js";
import { withCheckpointer } from "./report-thread.js";

const USAGE = `Usage: tsg history --thread T [--db FILE]

Lists the checkpoints of a thread, newest first: one per committed step, each with the nodes it
recorded and the nodes that run next. Resume from an older one with tsg resume --checkpoint ID.

Options:
  --thread T    the thread (required)
  --db FILE     the checkpoint database (default: ${DEFAULT_DB_FILE} in the current directory)
  -h, --help    show this help

Exit codes: 0 listed, 2 bad arguments or unknown thread.`;

const FLAGS = {
  thread: { type: "string" },
  db: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/**
 * Runs `tsg history` with the arguments after `history` and resolves with the exit code.
 *
 * @example
 * ```ts
 * await runHistoryCommand(["--thread", "brief-1"], { stdout: process.stdout, stderr: process.stderr });
 * ```
 */
export async function runHistoryCommand(argv: readonly string[], io: CliIO): Promise<number> {
  try {
    const { values } = parseCommandFlags(argv, FLAGS);
    if (values.help === true) {
      io.stdout.write(USAGE + "\n");
      return 0;
    }
    const threadId = values.thread;
    if (threadId === undefined || threadId.trim() === "") throw new UsageError("--thread T is required.");
    const db = values.db ?? DEFAULT_DB_FILE;
    const history = await withCheckpointer({ threadId, db }, (checkpointer) => checkpointer.list(threadId));
    if (history.length === 0) throw new UsageError(`thread "${threadId}" has no checkpoint in ${db}.`);
    io.stdout.write(formatHistory(threadId, db, history));
    return 0;
  } catch (error) {
    if (!(error instanceof UsageError || error instanceof PersistenceError)) throw error;
    io.stderr.write(`tsg history: ${error.message}\n`);
    return 2;
  }
}

/** `tsg history`, for the command table. */
export const historyCommand: Command = {
  summary: "list a thread's checkpoints, newest first",
  run: runHistoryCommand,
};

/**
 * The history table: step, source, the nodes recorded, the nodes next, the id, when.
 *
 * @example
 * ```ts
 * formatHistory("t1", "tsg.sqlite", await checkpointer.list("t1"));
 * ```
 */
export function formatHistory(threadId: string, db: string, history: readonly Checkpoint[]): string {
  const rows = history.map((c) => [
    String(c.step),
    c.metadata.source,
    c.metadata.writes.join(", ") || "-",
    c.next.join(", ") || "(end)",
    c.id,
    c.createdAt,
  ]);
  const header = ["step", "source", "wrote", "next", "id", "created"];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] as string).length)));
  const line = (cells: readonly string[]) =>
    cells.map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column] as number))).join("  ");
  const count = `${history.length} checkpoint${history.length === 1 ? "" : "s"}`;
  return [`thread ${threadId} (${db}): ${count}, newest first`, line(header), ...rows.map(line)].join("\n") + "\n";
}
