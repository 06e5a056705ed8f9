/** `tsg history`: lists a thread's checkpoints, newest first. */
import { DEFAULT_DB_FILE, type Checkpoint } from "../persistence/index.js";
import { defineCommand } from "./command.js";
import { UsageError, type CliIO } from "./io.js";
import { DB_FLAG, THREAD_FLAG, withCheckpointer } from "./thread-db.js";
import { cut, quote } from "../inspect/echo.js";

/** `tsg history`, for the command table. */
export const historyCommand = defineCommand({
  name: "history",
  summary: "list a thread's checkpoints, newest first",
  description:
    "Lists the checkpoints of a thread, newest first: one per committed step, each with the nodes it\n" +
    "recorded and the nodes that run next. Resume from an older one with tsg resume --checkpoint ID.\n" +
    "It only reads: a --db file that does not exist is refused, never created.",
  flags: { thread: THREAD_FLAG, db: DB_FLAG },
  exitCodes: "0 listed, 2 bad arguments, an unknown thread or an unusable --db.",
  async run({ flags }, io) {
    const threadId = flags.thread;
    if (threadId === undefined || threadId.trim() === "") throw new UsageError("--thread T is required.");
    const db = flags.db ?? DEFAULT_DB_FILE;
    const history = await withCheckpointer({ threadId, db }, (checkpointer) => checkpointer.list(threadId), {
      create: false,
      mapStoreErrors: true,
      readOnly: true,
    });
    if (history.length === 0) throw new UsageError(`thread ${quote(threadId)} has no checkpoint in ${cut(db)}.`);
    io.stdout.write(formatHistory(threadId, db, history));
    return 0;
  },
});

/**
 * Runs `tsg history` with the arguments after `history` and resolves with the exit code.
 *
 * @example
 * ```ts
 * await runHistoryCommand(["--thread", "brief-1"], { stdout: process.stdout, stderr: process.stderr });
 * ```
 */
export function runHistoryCommand(argv: readonly string[], io: CliIO): Promise<number> {
  return historyCommand.run(argv, io);
}

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
