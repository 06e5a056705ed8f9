/**
 * `tsg migrate --db DB --graph MODULE#EXPORT --dry-run`: what resuming each stored thread on the graph
 * would do (issue 42 §4): continue as it is, migrate from its version to the graph's, or be refused with
 * the resume points that do not map. It reads each thread as `getState` does (migrated in memory), so it
 * writes nothing: the migration itself happens when a thread is resumed.
 */
import { defineCommand } from "./command.js";
import { loadGraph } from "./graph-source.js";
import { UsageError, type CliIO } from "./io.js";
import { LOAD_TIMEOUT_FLAG, loadersOf } from "./module-loader.js";
import { SCHEMA_FLAG, storedThreads, withStore, type StoredThread } from "./stored-threads.js";
import { DB_FLAG } from "./thread-db.js";
import { cut } from "../inspect/echo.js";

/** The codes with which a graph refuses to continue a stored thread (the engine's PersistenceError codes). */
const REFUSALS = new Set(["GRAPH_VERSION_NEWER", "UNMAPPED_RESUME_POINT", "MIGRATION_MISSING", "MIGRATION_FAILED"]);

/** `tsg migrate`, for the command table. */
export const migrateCommand = defineCommand({
  name: "migrate",
  summary: "say what resuming each stored thread on a graph would do (--dry-run)",
  description:
    "Reads every thread of the store as the graph would resume it: a thread on the graph's version\n" +
    "continues as it is, an older one is migrated through the graph's declared migrations (from → to),\n" +
    "and one the graph cannot take is refused, with the resume points that do not map. Writes nothing:\n" +
    "a thread is migrated when it is resumed.",
  flags: {
    db: { ...DB_FLAG, description: "the checkpoint database: a SQLite file, or a postgres:// connection string" },
    schema: SCHEMA_FLAG,
    graph: { type: "string", valueHint: "FILE#EXPORT", description: "the new version: a module's compiled graph (required)" },
    "dry-run": { type: "boolean", description: "report what resuming each thread would do, writing nothing (required)" },
    "load-timeout": LOAD_TIMEOUT_FLAG,
  },
  exitCodes:
    "0 every thread can continue on the graph (as it is, or migrated); 2 bad arguments, a module or store that cannot be read; 3 threads the graph refuses (listed).",
  async run({ flags }, io) {
    if (flags["dry-run"] !== true)
      throw new UsageError("only --dry-run is available: a thread is migrated when it is resumed (invoke, stream, updateState).");
    if (flags.graph === undefined) throw new UsageError("--graph FILE#EXPORT is required: the compiled graph of the new version.");
    const source = await loadGraph(flags.graph, loadersOf(flags["load-timeout"]));
    const graph = source.spec === undefined ? undefined : source.graph;
    if (graph === undefined)
      throw new UsageError(
        `--graph ${cut(flags.graph)} is not a compiled graph${source.problems === undefined ? "" : ` (it has ${source.problems.length} problems: tsg check lists them)`}; export builder.compile({ version, migrations }).`,
      );
    const db = flags.db ?? "tsg.sqlite";
    const outcomes = await withStore({ db, schema: flags.schema }, async (store) => {
      const threads = await storedThreads(store, "tsg migrate");
      return Promise.all(threads.map((thread) => outcomeOf(thread, (id) => graph.getState(id, { checkpointer: store }))));
    });
    const refused = outcomes.filter((outcome) => outcome.refused).length;
    io.stdout.write(
      `${cut(db)}: ${outcomes.length} thread${outcomes.length === 1 ? "" : "s"} against ${cut(flags.graph)} (dry run: nothing written)${refused === 0 ? "" : `, ${refused} refused`}\n` +
        outcomes.map((outcome) => `  ${outcome.line}\n`).join(""),
    );
    return refused === 0 ? 0 : 3;
  },
});

/** What resuming one thread would do, as a line. */
interface Outcome {
  readonly line: string;
  readonly refused: boolean;
}

async function outcomeOf(
  thread: StoredThread,
  read: (threadId: string) => Promise<{ graph?: { version: number } } | undefined>,
): Promise<Outcome> {
  const { threadId, version } = thread;
  try {
    const migrated = await read(threadId);
    const to = migrated?.graph?.version ?? 1;
    return {
      line:
        to === version
          ? `${threadId}: on version ${version}, continues as it is`
          : `${threadId}: migrates from version ${version} to ${to}`,
      refused: false,
    };
  } catch (error) {
    // The graph's own copy of the library threw it (a module's): read by its code, not instanceof.
    const code = (error as { code?: unknown } | null)?.code;
    if (typeof code !== "string" || !REFUSALS.has(code)) throw error;
    const [first = "", ...points] = (error as Error).message.split("\n");
    const reason = first.replace(/^getState: /, "");
    const listed = points.filter((line) => line.startsWith("  - ")).map((line) => `\n    ${line.trim()}`);
    return { line: `${threadId}: refused (${code}, version ${version}): ${reason}${listed.join("")}`, refused: true };
  }
}

/**
 * Runs `tsg migrate` with the arguments after `migrate` and resolves with the exit code.
 *
 * @example
 * ```ts
 * await runMigrateCommand(["--db", "tsg.sqlite", "--graph", "./dist/graph.js#graph", "--dry-run"], { stdout: process.stdout, stderr: process.stderr });
 * ```
 */
export function runMigrateCommand(argv: readonly string[], io: CliIO): Promise<number> {
  return migrateCommand.run(argv, io);
}
