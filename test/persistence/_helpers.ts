/** Shared by the persistence tests: checkpointers in temporary files, the SQLite driver under test, and small graphs. */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, truncateSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { append, END, Send, START, StateGraph, type CompileOptions } from "../../src/index.js";
import {
  type Checkpointer,
  MemoryCheckpointer,
  SqliteCheckpointer,
  sqliteDriver,
  type SqliteConnection,
  type SqliteDriverName,
} from "../../src/persistence/index.js";

/**
 * The driver the SQLite suites run on: libsql (the default, what `npm test` uses), or the one
 * `TSG_SQLITE_DRIVER` names (`.ci/run` runs the suites again with `TSG_SQLITE_DRIVER=better-sqlite3`).
 */
export const SQLITE_DRIVER: SqliteDriverName = process.env.TSG_SQLITE_DRIVER === "better-sqlite3" ? "better-sqlite3" : "libsql";

/** Whether the SQLite suites run on a driver, or skip and why. */
export type DriverStatus = { readonly loads: true } | { readonly loads: false; readonly why: string };

/**
 * Loads the driver the SQLite suites run on and says whether they run. A driver that does not load
 * (not installed, or a native build that fails) skips them, saying why, except where `required`
 * (CI: `.ci/run` sets TSG_SQLITE_DRIVER_REQUIRED=1 after installing the driver): there a skip would
 * hide a broken install, so it throws and the suites fail.
 */
export function driverStatus(driver: SqliteDriverName, load: () => unknown, required: boolean): DriverStatus {
  try {
    load();
    return { loads: true };
  } catch (error) {
    const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
    if (required) {
      throw new Error(
        `[persistence tests] TSG_SQLITE_DRIVER_REQUIRED=1, but the SQLite driver "${driver}" does not load (check NODE_PATH): ${reason}`,
        { cause: error },
      );
    }
    const fix =
      driver === "libsql"
        ? "Install it with: npm install libsql@0.5"
        : "See .ci/run for installing better-sqlite3 12 beside the repository (NODE_PATH)";
    return { loads: false, why: `the SQLite driver "${driver}" does not load (${reason}): its suites are skipped. ${fix}` };
  }
}

const status = driverStatus(
  SQLITE_DRIVER,
  () => createRequire(import.meta.url)(SQLITE_DRIVER),
  process.env.TSG_SQLITE_DRIVER_REQUIRED === "1",
);
/** Whether {@link SQLITE_DRIVER} loads; when it does not, the SQLite suites skip and say so (outside CI). */
export const SQLITE_DRIVER_INSTALLED = status.loads;
if (!status.loads) console.warn(`[persistence tests] ${status.why}`);

/** A name for a describe block that runs on the SQLite driver under test. */
export const onDriver = (name: string) => `${name} [${SQLITE_DRIVER}${SQLITE_DRIVER_INSTALLED ? "" : ": does not load, skipped"}]`;

/** A SqliteCheckpointer on the driver under test. */
export function openSqlite(file: string, options: ConstructorParameters<typeof SqliteCheckpointer>[1] = {}): SqliteCheckpointer {
  return new SqliteCheckpointer(file, { driver: SQLITE_DRIVER, ...options });
}

/** A raw connection to a database file, on the driver under test: for inspecting or damaging it behind the checkpointer's back. */
export function rawConnection(file: string, mode: "readwrite" | "readonly" = "readwrite"): SqliteConnection {
  return sqliteDriver(SQLITE_DRIVER).open(file, { mode, busyTimeoutMs: 5000 });
}

/** A MemoryCheckpointer and, when its driver is installed, a SqliteCheckpointer in a temp file `name`: for `describe.each`. */
export function storesUnderTest(name: string): [string, () => { checkpointer: Checkpointer; close(): void }][] {
  const stores: [string, () => { checkpointer: Checkpointer; close(): void }][] = [
    ["MemoryCheckpointer", () => ({ checkpointer: new MemoryCheckpointer(), close: () => undefined })],
  ];
  if (!SQLITE_DRIVER_INSTALLED) return stores;
  stores.push([
    `SqliteCheckpointer on ${SQLITE_DRIVER}`,
    () => {
      const { dir, remove } = tempDir();
      const checkpointer = openSqlite(join(dir, name));
      return {
        checkpointer,
        close: () => {
          checkpointer.close();
          remove();
        },
      };
    },
  ]);
  return stores;
}

/** A fresh temporary directory and its cleanup. */
export function tempDir(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), "tsg-persistence-"));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The state of {@link parallelGraph}. */
export interface ParallelState {
  log: string[];
  docs: string[];
  sums: string[];
}

/**
 * START → plan → {left, right}; left → left2; [left2, right] join → gather; gather Sends one
 * `summarize` per doc. It exercises what a checkpoint must carry besides the state: join arrivals
 * (right arrives a superstep before left2) and Send inputs.
 */
export function parallelGraph(options: CompileOptions<"plan" | "left" | "left2" | "right" | "gather" | "summarize"> = {}) {
  return new StateGraph<ParallelState>({ reducers: { log: append, sums: append } })
    .addNode("plan", () => ({ log: ["plan"], docs: ["x", "y", "z"] }))
    .addNode("left", () => ({ log: ["left"] }))
    .addNode("left2", () => ({ log: ["left2"] }))
    .addNode("right", () => ({ log: ["right"] }))
    .addNode("gather", (s) => ({ log: [`gather ${s.docs.length}`] }))
    .addNode("summarize", (input: { doc: string }) => ({ sums: [`sum ${input.doc}`] }))
    .addEdge(START, "plan")
    .addEdge("plan", ["left", "right"])
    .addEdge("left", "left2")
    .addEdge(["left2", "right"], "gather")
    .addConditionalEdges("gather", (s) => s.docs.map((doc) => new Send("summarize", { doc })), ["summarize"])
    .addEdge("summarize", END)
    .compile(options);
}

export const parallelInput = (): ParallelState => ({ log: [], docs: [], sums: [] });

/**
 * A database of four report threads (t1 to t4) cut in the middle of its last page, as a copy taken
 * while the file grew can be: SQLite still opens it and takes writes, though `PRAGMA quick_check` finds
 * a rowid out of order, and a row written to it reads back as thread t1's. Written by a child process
 * (`buildDir`: buildForChildProcesses()), so the file is closed and its WAL copied in before the cut.
 */
export function cutMidPage(buildDir: string, file: string): string {
  const fixture = join(import.meta.dirname, "fixtures/many-threads.mjs");
  execFileSync(process.execPath, [fixture, buildDir, file, "4", SQLITE_DRIVER], { stdio: "pipe" });
  const pageSize = readFileSync(file).readUInt16BE(16);
  truncateSync(file, statSync(file).size - pageSize / 2);
  return file;
}
