/**
 * The SQLite rows of the overhead formula (bench/_overhead.ts): the report run (6 supersteps, 7
 * checkpoints) plain and on a `SqliteCheckpointer` in both durability modes, against the floors under
 * them, the same run's 7 rows written by the driver alone (no code of ours): an autocommit INSERT each
 * (what `sync` needs at least: a commit per checkpoint) and all 7 in one transaction (what `async` needs).
 * Beside them, the floor inside a run: the engine on a store that sends only the floor's statements, whose
 * overhead is the least any store can score (see floorStore).
 *
 * With `TSG_LANGGRAPH_SQLITE` (set by `bash bench/langgraph-sqlite.sh`, which installs the peer), LangGraph.js
 * on its own SQLite saver runs the same graph in the same rounds, in both durability modes, on the same disk.
 *
 * Run alone: npx tsc -p bench/tsconfig.json && node bench/dist/bench/sqlite-overhead.js [--rounds=N] [--runs=N]
 * (part of bench/checkpoints.js). TSG_SQLITE_DRIVER=better-sqlite3 for the other driver.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Checkpoint, Checkpointer } from "../src/engine/index.js";
import { saveNow, type SavesNow } from "../src/engine/store-rules.js";
import { buildReportGraph, initialReportState } from "../src/examples/report/index.js";
import type { SqliteConnection, SqliteStatement } from "../src/persistence/sqlite/driver.js";
import { SqliteCheckpointer, sqliteDriver } from "../src/persistence/index.js";
import { langGraphSqlite } from "./_langgraph-sqlite.js";
import { loadAverage } from "./_machine.js";
import { type AlternatedOptions, figureOf, overheadTable, roundRatio, timeAlternated } from "./_overhead.js";
import type { Spread } from "./_rounds.js";

/** Contender names, as the tables print them. */
export const SQLITE_OVERHEAD = {
  plain: "report run, no checkpointer",
  sync: "SqliteCheckpointer, durability sync",
  async: "SqliteCheckpointer, durability async",
  floorSync: "floor: the 7 rows by the driver alone, an autocommit INSERT each",
  floorAsync: "floor: the 7 rows by the driver alone, in one transaction",
  inRunSync: "the engine on a store that sends only the floor's statements, durability sync",
  inRunAsync: "the engine on a store that sends only the floor's statements, durability async",
  langGraphSync: "LangGraph.js + SqliteSaver (better-sqlite3), durability sync",
  langGraphAsync: "LangGraph.js + SqliteSaver (better-sqlite3), durability async",
} as const;

/** What {@link sqliteOverhead} measured. */
export interface SqliteOverhead {
  readonly sync: Spread | undefined;
  readonly async: Spread | undefined;
  /** The floor-only store's overheads: the least any store scores in the same rounds. */
  readonly leastSync: Spread | undefined;
  readonly leastAsync: Spread | undefined;
  readonly markdown: string;
}

const MAX_STEPS = 30;
const COLUMNS = "thread_id, id, parent_id, step, created_at, body, checksum, delta, delta_checksum";
type Row = [string, string, string | null, number, string, string, string, string, string];

/**
 * The floor inside a run: a store that sends nothing but the floor's statements (the sample run's rows,
 * in order, as the floor sends them; no check, no JSON, no checksum of ours), saving synchronously as
 * SqliteCheckpointer does. Its overhead is the least any store can score in these rounds: the engine's
 * thread path, plus what the run's JavaScript and the driver's calls cost each other when they take
 * turns (each evicts the other's caches), which the floor, its statements back to back, never pays.
 */
function floorStore(connection: SqliteConnection, insert: SqliteStatement<Row>, rows: readonly Row[]): Checkpointer & SavesNow {
  let next = 0;
  const write = (checkpoint: Checkpoint) => {
    if (checkpoint.parentId === null) next = 0;
    const [, ...rest] = rows[next++ % rows.length] as Row;
    insert.run(checkpoint.threadId, ...rest);
  };
  return {
    [saveNow](checkpoint) {
      write(checkpoint);
      return true;
    },
    save: async (checkpoint) => write(checkpoint),
    async saveMany(checkpoints) {
      connection.exec("BEGIN IMMEDIATE");
      for (const checkpoint of checkpoints) write(checkpoint);
      connection.exec("COMMIT");
    },
    latest: async () => undefined,
    get: async () => undefined,
    list: async () => [],
    deleteThread: async () => undefined,
    putWrites: async () => undefined,
  };
}

/** Times the contenders in alternated rounds on `driver`, in a temporary directory. */
export async function sqliteOverhead(driver: "libsql" | "better-sqlite3", options: AlternatedOptions): Promise<SqliteOverhead> {
  const loadBefore = loadAverage();
  const dir = mkdtempSync(join(tmpdir(), "tsg-bench-overhead-"));
  const graph = buildReportGraph();
  const input = initialReportState();
  const store = new SqliteCheckpointer(join(dir, "report.sqlite"), { driver });
  const floorFile = join(dir, "floor.sqlite");
  new SqliteCheckpointer(floorFile, { driver }).close(); // the same tables and indexes
  const bare = sqliteDriver(driver).open(floorFile, { mode: "readwrite", busyTimeoutMs: 5000 });
  const peer = await langGraphSqlite(graph, input, join(dir, "langgraph.sqlite"), MAX_STEPS);
  try {
    await graph.invoke(input, { threadId: "sample", checkpointer: store, maxSteps: MAX_STEPS });
    // As SqliteCheckpointer's connections (src/persistence/sqlite/open.ts).
    bare.pragma("journal_mode = WAL");
    bare.pragma("synchronous = NORMAL");
    bare.pragma("wal_autocheckpoint = 4000");
    const sampleFile = sqliteDriver(driver).open(join(dir, "report.sqlite"), { mode: "readonly", busyTimeoutMs: 5000 });
    const sampleRows = sampleFile
      .prepare<[], Record<string, unknown>>(`SELECT ${COLUMNS} FROM tsg_checkpoints WHERE thread_id = 'sample' ORDER BY seq`)
      .all()
      .map((row) => COLUMNS.split(", ").map((column) => row[column]) as Row);
    sampleFile.close();
    if (sampleRows.length !== 7) throw new Error(`the sample run stored ${sampleRows.length} checkpoints, not 7`);
    const insert = bare.prepare<Row>(`INSERT INTO tsg_checkpoints (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    const inRun = floorStore(bare, insert, sampleRows);
    let thread = 0;
    const bareRun = (oneTransaction: boolean) => {
      const threadId = `b${thread++}`;
      if (oneTransaction) bare.exec("BEGIN IMMEDIATE");
      for (const [, ...rest] of sampleRows) insert.run(threadId, ...rest);
      if (oneTransaction) bare.exec("COMMIT");
    };
    const figures = await timeAlternated(
      [
        { name: SQLITE_OVERHEAD.plain, run: () => graph.invoke(input, { maxSteps: MAX_STEPS }) },
        {
          name: SQLITE_OVERHEAD.sync,
          run: () => graph.invoke(input, { threadId: `r${thread++}`, checkpointer: store, maxSteps: MAX_STEPS }),
        },
        {
          name: SQLITE_OVERHEAD.async,
          run: () => graph.invoke(input, { threadId: `r${thread++}`, checkpointer: store, maxSteps: MAX_STEPS, durability: "async" }),
        },
        { name: SQLITE_OVERHEAD.floorSync, run: () => bareRun(false) },
        { name: SQLITE_OVERHEAD.floorAsync, run: () => bareRun(true) },
        {
          name: SQLITE_OVERHEAD.inRunSync,
          run: () => graph.invoke(input, { threadId: `f${thread++}`, checkpointer: inRun, maxSteps: MAX_STEPS }),
        },
        {
          name: SQLITE_OVERHEAD.inRunAsync,
          run: () => graph.invoke(input, { threadId: `f${thread++}`, checkpointer: inRun, maxSteps: MAX_STEPS, durability: "async" }),
        },
        ...("run" in peer
          ? [
              { name: SQLITE_OVERHEAD.langGraphSync, run: () => peer.run("sync", `l${thread++}`) },
              { name: SQLITE_OVERHEAD.langGraphAsync, run: () => peer.run("async", `l${thread++}`) },
            ]
          : []),
      ],
      options,
    );
    const us = (spread: Spread | undefined) => (spread === undefined ? "–" : `${(spread.median * 1000).toFixed(0)} µs`);
    const table = overheadTable(
      figures,
      SQLITE_OVERHEAD.plain,
      [
        {
          mode: "sync",
          floor: SQLITE_OVERHEAD.floorSync,
          floorIs: "the 7 rows, an autocommit INSERT each",
          store: SQLITE_OVERHEAD.sync,
          floorStore: SQLITE_OVERHEAD.inRunSync,
          target: "≤ 1.3",
        },
        {
          mode: "async",
          floor: SQLITE_OVERHEAD.floorAsync,
          floorIs: "the 7 rows in one transaction",
          store: SQLITE_OVERHEAD.async,
          floorStore: SQLITE_OVERHEAD.inRunAsync,
          target: "≤ 1.5",
        },
      ],
      us,
    );
    const [sync, async] = [table.modes.get("sync"), table.modes.get("async")];
    const rows = Object.values(SQLITE_OVERHEAD).flatMap((name) => {
      if (!figures.has(name)) return [`| ${name} | ${"missing" in peer ? peer.missing : "–"} | – |`];
      const ratio = roundRatio(figures, name, SQLITE_OVERHEAD.plain);
      return [`| ${name} | ${us(figureOf(figures, name))} | ${ratio === undefined ? "–" : `${ratio.median.toFixed(2)}×`} |`];
    });
    const faster = (theirs: string, mine: string) => {
      const ratio = roundRatio(figures, theirs, mine);
      return ratio === undefined ? "–" : `**${ratio.median.toFixed(1)}×** (${ratio.min.toFixed(1)}–${ratio.max.toFixed(1)})`;
    };
    const markdown = [
      `SQLite on ${driver}, the report run (6 supersteps, 7 checkpoints): ${options.rounds} alternated rounds of ${options.runs} runs ` +
        `each, a contender's figure the median of its round; load average before ${loadBefore}, after ${loadAverage()}.`,
      "",
      "| contender | per run (median of the rounds) | × plain (same round) |",
      "|---|---|---|",
      ...rows,
      "",
      table.markdown,
      "",
      "| what (median of the rounds, min–max) | measured | target |",
      "|---|---|---|",
      `| LangGraph.js + SqliteSaver ÷ SqliteCheckpointer, both sync, per round | ${faster(SQLITE_OVERHEAD.langGraphSync, SQLITE_OVERHEAD.sync)} | ≥ 10× |`,
      `| the same, both async | ${faster(SQLITE_OVERHEAD.langGraphAsync, SQLITE_OVERHEAD.async)} | ≥ 10× |`,
    ].join("\n");
    return { sync: sync?.ours, async: async?.ours, leastSync: sync?.least, leastAsync: async?.least, markdown };
  } finally {
    store.close();
    bare.close();
    if ("close" in peer) peer.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A numeric `--name=value` flag. */
export function flag(name: string): number | undefined {
  const value = process.argv.find((arg) => arg.startsWith(`--${name}=`))?.split("=")[1];
  return value === undefined ? undefined : Number(value);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const driver = process.env.TSG_SQLITE_DRIVER === "better-sqlite3" ? "better-sqlite3" : "libsql";
  const measured = await sqliteOverhead(driver, { rounds: flag("rounds") ?? 25, runs: flag("runs") ?? 20 });
  console.log(measured.markdown);
}
