/** `tsg history`: lists a thread's checkpoints, newest first. */
import { DEFAULT_DB_FILE, type Checkpoint } from "../persistence/index.js";
import { defineCommand } from "./command.js";
import { UsageError, type CliIO } from "./io.js";
import { DB_FLAG, THREAD_FLAG, withCheckpointer } from "./thread-db.js";
import { SCHEMA_FLAG, storedThreads, withStore, type StoredThread } from "./stored-threads.js";
import { cut, quote } from "../inspect/echo.js";

/** `tsg history`, for the command table. */
export const historyCommand = defineCommand({
  name: "history",
  summary: "list a thread's checkpoints, newest first",
  description:
    "Lists the checkpoints of a thread, newest first: one per committed step, each with the nodes it\n" +
    "recorded and the nodes that run next. Resume from an older one with tsg resume --checkpoint ID.\n" +
    "It only reads: a --db file that does not exist is refused, never created.\n" +
    "--versions lists every thread instead, with the graph version of its latest checkpoint (a SQLite file,\n" +
    "or a postgres:// connection string): which threads a new version would have to migrate.",
  flags: {
    thread: { ...THREAD_FLAG, description: "the thread (required without --versions)" },
    db: { ...DB_FLAG, description: "the checkpoint database; with --versions also a postgres:// connection string" },
    versions: { type: "boolean", description: "list every stored thread with the graph version of its latest checkpoint" },
    schema: SCHEMA_FLAG,
  },
  exitCodes: "0 listed, 2 bad arguments, an unknown thread, an unusable --db, or (--versions) a store that cannot list its threads.",
  async run({ flags }, io) {
    if (flags.versions === true) {
      if (flags.thread !== undefined) throw new UsageError("--versions lists every thread: leave --thread out.");
      const db = flags.db ?? DEFAULT_DB_FILE;
      const threads = await withStore({ db, schema: flags.schema }, (store) => storedThreads(store, "tsg history --versions"));
      io.stdout.write(formatVersions(db, threads));
      return 0;
    }
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
 * `tsg history --versions`: each stored thread with the version (and spec hash) of the graph that wrote
 * its latest checkpoint, its step and what runs next; then the count per version.
 *
 * @example
 * ```ts
 * formatVersions("tsg.sqlite", await storedThreads(store, "tsg history --versions"));
 * ```
 */
export function formatVersions(db: string, threads: readonly StoredThread[]): string {
  const rows = threads.map(({ threadId, latest, version }) => [
    threadId,
    String(version),
    latest.graph?.specHash ?? "-",
    String(latest.step),
    latest.next.join(", ") || "(end)",
  ]);
  const byVersion = new Map<number, number>();
  for (const { version } of threads) byVersion.set(version, (byVersion.get(version) ?? 0) + 1);
  const counts = [...byVersion]
    .sort(([a], [b]) => a - b)
    .map(([version, count]) => `version ${version}: ${count}`)
    .join(", ");
  const total = `${threads.length} thread${threads.length === 1 ? "" : "s"}`;
  return (
    [
      `${cut(db)}: ${total} by the graph version of their latest checkpoint${counts === "" ? "" : ` (${counts})`}`,
      ...table(["thread", "version", "spec", "step", "next"], rows),
    ].join("\n") + "\n"
  );
}

/** Rows under a header, each column padded to its widest cell (the last one not). */
function table(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] as string).length)));
  const line = (cells: readonly string[]) =>
    cells.map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column] as number))).join("  ");
  return [line(header), ...rows.map(line)];
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
  const count = `${history.length} checkpoint${history.length === 1 ? "" : "s"}`;
  return (
    [`thread ${threadId} (${db}): ${count}, newest first`, ...table(["step", "source", "wrote", "next", "id", "created"], rows)].join(
      "\n",
    ) + "\n"
  );
}
