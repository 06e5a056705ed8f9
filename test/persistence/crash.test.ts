/**
 * Crash recovery with a real process: a child runs a graph on an SQLite checkpointer, the test kills
 * it with SIGKILL mid-run, and a new child resumes the thread. The run finishes with the state of an
 * uninterrupted run; no committed step is lost or repeated; the file passes PRAGMA integrity_check.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { childProcessSuite, spawnFixture } from "./_build.js";
import { onDriver, rawConnection, SQLITE_DRIVER, SQLITE_DRIVER_INSTALLED } from "./_helpers.js";

// The suites below skip only where their driver does not load: TSG_SQLITE_DRIVER=better-sqlite3 selects the optional
// native driver, which only .ci/run compiles (about 5 minutes), and the default libsql run covers them meanwhile. In
// CI (TSG_SQLITE_DRIVER_REQUIRED=1) a driver that does not load fails them instead (_helpers.ts, driverStatus).
const FIXTURE = join(import.meta.dirname, "fixtures/crash-run.mjs");
const PARALLEL_FIXTURE = join(import.meta.dirname, "fixtures/crash-parallel.mjs");
const NODES = ["a", "b", "c", "d", "e", "f", "g", "h"];

interface Outcome {
  readonly resumed: boolean;
  readonly status: string;
  readonly state: { n: number; log: string[] };
  readonly trace: string[];
}

const suite = childProcessSuite();

function start(db: string, log: string, thread: string, delayMs: number, parallel?: { readonly failSlow: boolean }) {
  const args =
    parallel === undefined
      ? [FIXTURE, suite.buildDir, db, log, thread, String(delayMs), SQLITE_DRIVER]
      : [PARALLEL_FIXTURE, suite.buildDir, db, log, thread, String(delayMs), SQLITE_DRIVER, parallel.failSlow ? "1" : "0"];
  return spawnFixture(args);
}

async function runToEnd(db: string, log: string, thread: string, delayMs: number): Promise<Outcome> {
  const { code, out, err } = await start(db, log, thread, delayMs).exit;
  if (code !== 0) throw new Error(`the child exited with ${code}: ${err}`);
  return JSON.parse(out) as Outcome;
}

async function waitFor(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("waitFor: timed out");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const logLines = (log: string) => (existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean) : []);
const count = (lines: string[], line: string) => lines.filter((l) => l === line).length;

/** What a campaign of kills did; each campaign prints it (and `npm test` fails unless nothing was lost or doubled). */
interface CampaignCounts {
  /** Children killed with SIGKILL (a child that finished before its kill is not counted). */
  readonly kills: number;
  /** Child processes run, the one that finished the thread included. */
  readonly runs: number;
  /** Committed steps missing from the thread at the end (a multiset difference with an uninterrupted run's). */
  readonly lost: number;
  /** Committed steps stored twice, plus starts of a node after its step (or pending write) was committed. */
  readonly doubled: number;
}

/** A kill campaign in progress: the children run, and after each kill what the file held committed. */
interface Campaign {
  runs: number;
  kills: number;
  /** After each kill: how many log lines there were, and the nodes committed then. */
  readonly snapshots: { readonly lines: number; readonly committed: ReadonlySet<string> }[];
}

/**
 * Starts a child per delay and kills it `delay` ms after its first new log line, checking the file's
 * integrity after each kill and noting what it holds committed (`committed`); the outcome of a child
 * that finished first, else `undefined`.
 */
async function killRepeatedly(
  killAfterMs: readonly number[],
  db: string,
  log: string,
  startChild: () => ReturnType<typeof start>,
  campaign: Campaign,
  committed: () => ReadonlySet<string>,
): Promise<Outcome | undefined> {
  for (const delay of killAfterMs) {
    const linesBefore = logLines(log).length;
    const { child, exit } = startChild();
    campaign.runs += 1;
    let exited = false;
    void exit.then(() => (exited = true));
    await waitFor(() => exited || logLines(log).length > linesBefore);
    await new Promise((resolve) => setTimeout(resolve, delay));
    child.kill("SIGKILL");
    const ended = await exit;
    if (ended.signal === "SIGKILL") campaign.kills += 1;
    if (existsSync(db)) expect(inspect(db, "t").integrity).toBe("ok");
    if (ended.code === 0) return JSON.parse(ended.out) as Outcome;
    if (existsSync(db)) campaign.snapshots.push({ lines: logLines(log).length, committed: committed() });
  }
  return undefined;
}

/** A new campaign; `finished` (the last child, run to the end) is counted by {@link report}. */
const newCampaign = (): Campaign => ({ runs: 0, kills: 0, snapshots: [] });

/**
 * A round's counts: `expected` and `final` are the committed steps of an uninterrupted run
 * and of the thread at the end; `covers` maps a node to the committed step it is part of (a subgraph's).
 */
function report(
  round: Campaign,
  log: string,
  expected: readonly string[],
  final: readonly string[],
  finishedByTest: boolean,
  covers: (node: string) => readonly string[] = (node) => [node],
): CampaignCounts {
  const remaining = [...final];
  let lost = 0;
  for (const step of expected) {
    const at = remaining.indexOf(step);
    if (at === -1) lost += 1;
    else remaining.splice(at, 1);
  }
  let doubled = remaining.length;
  const lines = logLines(log);
  round.snapshots.forEach(({ lines: from, committed }, index) => {
    const to = round.snapshots[index + 1]?.lines ?? lines.length;
    for (const line of lines.slice(from, to)) {
      const node = line.startsWith("start ") ? line.slice("start ".length) : undefined;
      if (node !== undefined && covers(node).some((step) => committed.has(step))) doubled += 1;
    }
  });
  return { kills: round.kills, runs: round.runs + (finishedByTest ? 1 : 0), lost, doubled };
}

/** TSG_CRASH_KILLS=N: each kill campaign kills at least N times, in as many rounds (fresh files) as that takes. */
const LONG_KILLS = Number(process.env.TSG_CRASH_KILLS ?? 0);

/**
 * Runs a kill campaign: one round at the `short` delays in npm test; with TSG_CRASH_KILLS, rounds of 20
 * delays under `maxMs` from a fixed sequence (so a failure replays), each on fresh files in `dir`, until
 * that many kills. Prints the totals, and fails unless something was killed and nothing lost or doubled.
 */
async function campaign(
  name: string,
  short: readonly number[],
  maxMs: number,
  round: (db: string, log: string, killAfterMs: readonly number[]) => Promise<CampaignCounts>,
): Promise<void> {
  let seed = 7;
  const next = () => {
    seed = (seed * 48_271) % 2_147_483_647;
    return seed % maxMs;
  };
  const total = { kills: 0, runs: 0, lost: 0, doubled: 0 };
  for (let index = 0; index === 0 || total.kills < LONG_KILLS; index++) {
    const delays = LONG_KILLS > 0 ? Array.from({ length: 20 }, next) : short;
    const counts = await round(join(suite.dir, `kills-${index}.sqlite`), join(suite.dir, `kills-${index}.log`), delays);
    for (const key of ["kills", "runs", "lost", "doubled"] as const) total[key] += counts[key];
    if (counts.lost > 0 || counts.doubled > 0) break;
  }
  console.info(
    `crash campaign (${name}, ${SQLITE_DRIVER}): ${total.kills} kills, ${total.runs} runs, ${total.lost} lost, ${total.doubled} doubled`,
  );
  expect(total).toMatchObject({ lost: 0, doubled: 0 });
  expect(total.kills).toBeGreaterThan(0);
}

/** The nodes whose steps the thread has committed: its checkpoints' writes, and (`pending`) its pending writes. */
function committedNodes(db: string, pending = false): ReadonlySet<string> {
  return new Set([...inspect(db, "t").checkpoints.flatMap((c) => c.metadata.writes), ...(pending ? storedWrites(db, "t") : [])]);
}

/** What the file says, read with a fresh connection: integrity, and the thread's checkpoints oldest first. */
function inspect(db: string, thread: string) {
  const conn = rawConnection(db, "readonly");
  try {
    const integrity = conn.pragma("integrity_check");
    const rows = conn.prepare<[string], { body: string }>("SELECT body FROM tsg_checkpoints WHERE thread_id = ? ORDER BY seq").all(thread);
    const checkpoints = rows.map(
      (row) =>
        JSON.parse(row.body) as { id: string; parentId: string | null; step: number; metadata: { writes: string[] }; next: string[] },
    );
    return { integrity, checkpoints };
  } finally {
    conn.close();
  }
}

// Skips where the SQLite driver does not load (outside CI: driverStatus), because the killed child's checkpoints
// must outlive it in a file the next process opens, and only SqliteCheckpointer keeps them there.
describe.skipIf(!SQLITE_DRIVER_INSTALLED)(onDriver("a run killed with SIGKILL resumes in a new process"), () => {
  it("resumes after the kill: same final state, the in-flight node re-run, no committed node run twice, file intact", async () => {
    const expected = await runToEnd(join(suite.dir, "clean.sqlite"), join(suite.dir, "clean.log"), "t", 20);
    expect(expected).toMatchObject({ resumed: false, status: "done", trace: NODES });

    const db = join(suite.dir, "crash.sqlite");
    const log = join(suite.dir, "crash.log");
    const { child, exit } = start(db, log, "t", 150);
    await waitFor(() => logLines(log).includes("start d"));
    child.kill("SIGKILL");
    expect((await exit).signal).toBe("SIGKILL");

    const afterKill = inspect(db, "t");
    expect(afterKill.integrity).toBe("ok");
    // a, b and c committed, each with its checkpoint; d was in flight and left nothing behind.
    expect(afterKill.checkpoints.map((c) => c.metadata.writes)).toEqual([[], ["a"], ["b"], ["c"]]);
    expect(afterKill.checkpoints.at(-1)?.next).toEqual(["d"]);

    const resumed = await runToEnd(db, log, "t", 5);
    expect(resumed.resumed).toBe(true);
    expect([resumed.state, resumed.trace]).toEqual([expected.state, expected.trace]);

    const lines = logLines(log);
    expect(NODES.map((node) => count(lines, `start ${node}`))).toEqual([1, 1, 1, 2, 1, 1, 1, 1]);
    expect(count(lines, "end d")).toBe(1);

    const final = inspect(db, "t");
    expect(final.integrity).toBe("ok");
    expect(final.checkpoints.map((c) => c.metadata.writes)).toEqual([[], ...NODES.map((node) => [node])]);
    expect(final.checkpoints.map((c) => c.step)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(final.checkpoints.map((c) => c.parentId)).toEqual([null, ...final.checkpoints.slice(0, -1).map((c) => c.id)]);
  }, 60_000);

  it("survives repeated kills at arbitrary moments, writes included", async () => {
    const expected = await runToEnd(join(suite.dir, "clean.sqlite"), join(suite.dir, "clean.log"), "t", 0);
    // Fixed delays (not random), so a failure replays. Counted from the child's first node start, they
    // land in node work and in checkpoint writes (a node takes ~3 ms; a write well under 1 ms).
    await campaign("sequential run", [0, 7, 2, 13, 5, 1, 11, 3, 9, 4], 24, async (db, log, killAfterMs) => {
      const kills = newCampaign();
      const killed = await killRepeatedly(
        killAfterMs,
        db,
        log,
        () => start(db, log, "t", 3),
        kills,
        () => committedNodes(db),
      );
      const outcome = killed ?? (await runToEnd(db, log, "t", 3));
      const { checkpoints, integrity } = inspect(db, "t");
      const counts = report(
        kills,
        log,
        NODES,
        checkpoints.flatMap((c) => c.metadata.writes),
        killed === undefined,
      );
      if (counts.lost + counts.doubled > 0) return counts;
      expect([outcome.state, outcome.trace]).toEqual([expected.state, expected.trace]);
      expect(integrity).toBe("ok");
      expect(checkpoints.map((c) => c.metadata.writes)).toEqual([[], ...NODES.map((node) => [node])]);
      return counts;
    });
  }, 600_000);
});

/** The pending writes stored for the thread, by node. */
function storedWrites(db: string, thread: string): string[] {
  if (!existsSync(db)) return [];
  const conn = rawConnection(db, "readonly");
  try {
    const rows = conn.prepare<[string], { body: string }>("SELECT body FROM tsg_writes WHERE thread_id = ? ORDER BY task").all(thread);
    return rows.map((row) => (JSON.parse(row.body) as { node: string }).node);
  } catch {
    return []; // the tables are not created yet
  } finally {
    conn.close();
  }
}

const PARALLEL_NODES = ["a", "quick1", "quick2", "slow", "z"];

// Skips where the SQLite driver does not load (outside CI: driverStatus), because the siblings' pending writes
// must be in the file when the process dies, for a new process to find them.
describe.skipIf(!SQLITE_DRIVER_INSTALLED)(onDriver("a parallel superstep killed with SIGKILL keeps its siblings' writes"), () => {
  async function uninterrupted(): Promise<Outcome> {
    const { code, out, err } = await start(join(suite.dir, "clean.sqlite"), join(suite.dir, "clean.log"), "t", 0, { failSlow: false }).exit;
    if (code !== 0) throw new Error(`the child exited with ${code}: ${err}`);
    return JSON.parse(out) as Outcome;
  }

  async function resume(db: string, log: string): Promise<Outcome> {
    const { code, out, err } = await start(db, log, "t", 2, { failSlow: false }).exit;
    if (code !== 0) throw new Error(`the child exited with ${code}: ${out} ${err}`);
    return JSON.parse(out) as Outcome;
  }

  it("killed between the siblings' success and the superstep's commit: the resume runs only the one in flight", async () => {
    const expected = await uninterrupted();
    const db = join(suite.dir, "crash.sqlite");
    const log = join(suite.dir, "crash.log");
    const { child, exit } = start(db, log, "t", 10, { failSlow: false });
    await waitFor(() => storedWrites(db, "t").length === 2);
    child.kill("SIGKILL");
    expect((await exit).signal).toBe("SIGKILL");
    expect(storedWrites(db, "t")).toEqual(["quick1", "quick2"]);
    expect(inspect(db, "t").checkpoints.at(-1)?.next).toEqual(["quick1", "quick2", "slow"]);

    const resumed = await resume(db, log);
    expect([resumed.state, resumed.trace]).toEqual([expected.state, expected.trace]);
    const lines = logLines(log);
    expect(PARALLEL_NODES.map((node) => count(lines, `start ${node}`))).toEqual([1, 1, 1, 2, 1]);
    expect(inspect(db, "t").integrity).toBe("ok");
  }, 60_000);

  it("a sibling that failed in one process is the only node the next process runs again", async () => {
    const expected = await uninterrupted();
    const db = join(suite.dir, "failed.sqlite");
    const log = join(suite.dir, "failed.log");
    const failed = await start(db, log, "t", 2, { failSlow: true }).exit;
    expect(failed.code).toBe(1);
    expect(failed.out).toContain("slow failed on purpose");
    const resumed = await resume(db, log);
    expect([resumed.state, resumed.trace]).toEqual([expected.state, expected.trace]);
    const lines = logLines(log);
    expect(PARALLEL_NODES.map((node) => count(lines, `start ${node}`))).toEqual([1, 1, 1, 2, 1]);
  }, 60_000);

  it("survives repeated kills at arbitrary moments of the parallel superstep: the final state is an uninterrupted run's", async () => {
    const expected = await uninterrupted();
    // Fixed delays (not random), so a failure replays. Counted from the child's first node start, they land
    // in a, in the siblings (quick1 ends at ~4 ms, quick2 at ~8 ms, slow at ~80 ms) and in the writes.
    await campaign("parallel superstep", [2, 6, 10, 1, 30, 5, 9, 3, 50, 7], 90, async (db, log, killAfterMs) => {
      const kills = newCampaign();
      const startChild = () => start(db, log, "t", 4, { failSlow: false });
      const killed = await killRepeatedly(killAfterMs, db, log, startChild, kills, () => committedNodes(db, true));
      const outcome = killed ?? (await resume(db, log));
      const writes = inspect(db, "t").checkpoints.map((c) => c.metadata.writes);
      // A sibling whose write was kept (pending) before a kill never runs again: counted as doubled if it does.
      const counts = report(kills, log, PARALLEL_NODES, writes.flat(), killed === undefined);
      if (counts.lost + counts.doubled > 0) return counts;
      expect([outcome.state, outcome.trace]).toEqual([expected.state, expected.trace]);
      expect(writes).toEqual([[], ["a"], ["quick1", "quick2", "slow"], ["z"]]);
      return counts;
    });
  }, 600_000);
});

const INTERRUPT_FIXTURE = join(import.meta.dirname, "fixtures/crash-interrupt.mjs");
/** The nodes of crash-interrupt.mjs in run order: top and the child's ask call interrupt(), c1…c3 run inside the subgraph sub. */
const ASKING_NODES = ["p1", "top", "c1", "ask", "c2", "c3", "p2"];
/** How many times each node starts in a run nobody kills: an asking node once to pause, once answered. */
const ASKING_STARTS = [1, 2, 1, 2, 1, 1, 1];

function startAsking(db: string, log: string, delayMs: number) {
  return spawnFixture([INTERRUPT_FIXTURE, suite.buildDir, db, log, "t", String(delayMs), SQLITE_DRIVER]);
}

async function askingToEnd(db: string, log: string, delayMs: number): Promise<Outcome> {
  const { code, out, err } = await startAsking(db, log, delayMs).exit;
  if (code !== 0) throw new Error(`the child exited with ${code}: ${err}`);
  return JSON.parse(out) as Outcome;
}

/** The parent's committed supersteps, oldest first (its pause checkpoints left out: they commit nothing). */
function committedWrites(db: string): string[][] {
  const conn = rawConnection(db, "readonly");
  try {
    const rows = conn.prepare<[string], { body: string }>("SELECT body FROM tsg_checkpoints WHERE thread_id = ? ORDER BY seq").all("t");
    return rows
      .map((row) => JSON.parse(row.body) as { metadata: { source: string; writes: string[] } })
      .filter((c) => c.metadata.source !== "interrupt")
      .map((c) => c.metadata.writes);
  } finally {
    conn.close();
  }
}

/** How many checkpoints the subgraph's threads (`t␟…`) still hold: none once the run is done. */
function childRows(db: string): number {
  return childLatest(db).length;
}

/** The latest checkpoint of each subgraph thread (`t␟…`) left in the file. */
function childLatest(db: string): { next: string[] }[] {
  const conn = rawConnection(db, "readonly");
  try {
    const rows = conn
      .prepare<[], { body: string }>(
        "SELECT body FROM tsg_checkpoints c WHERE thread_id <> 't' AND seq = (SELECT max(seq) FROM tsg_checkpoints WHERE thread_id = c.thread_id)",
      )
      .all();
    return rows.map((row) => JSON.parse(row.body) as { next: string[] });
  } finally {
    conn.close();
  }
}

/** The steps committed so far: the parent's, and those of the subgraph's threads (their nodes are inside `sub`). */
function committedAsking(db: string): ReadonlySet<string> {
  const conn = rawConnection(db, "readonly");
  try {
    const rows = conn.prepare<[], { body: string }>("SELECT body FROM tsg_checkpoints ORDER BY seq").all();
    return new Set(
      rows
        .map((row) => JSON.parse(row.body) as { metadata: { source: string; writes: string[] } })
        .filter((c) => c.metadata.source !== "interrupt")
        .flatMap((c) => c.metadata.writes),
    );
  } catch {
    return new Set(); // the tables are not created yet
  } finally {
    conn.close();
  }
}

/** The committed steps a start of `node` repeats: its own, and for a node of the subgraph, the parent's `sub`. */
const askingCovers = (node: string) => (["c1", "ask", "c2", "c3"].includes(node) ? [node, "sub"] : [node]);

// Skips where the SQLite driver does not load (outside CI: driverStatus), because the paused thread (its interrupts,
// the subgraph's child thread) must be in a file that the next process resumes.
describe.skipIf(!SQLITE_DRIVER_INSTALLED)(onDriver("in-node interrupts and a subgraph interrupt, killed with SIGKILL"), () => {
  it.each([
    ["inside the subgraph, after its interrupt was answered", "start c2", [1, 2, 1, 2, 2, 1, 1]],
    ["while the answered subgraph node runs", "start ask#2", [1, 2, 1, 3, 1, 1, 1]],
    ["while the answered top-level node runs", "start top#2", [1, 3, 1, 2, 1, 1, 1]],
  ])(
    "killed %s: the resume runs only what was in flight, no committed step again",
    async (_, at, starts) => {
      const expected = await askingToEnd(join(suite.dir, "clean.sqlite"), join(suite.dir, "clean.log"), 0);
      expect(expected).toMatchObject({ resumed: false, status: "done", trace: ["p1", "top", "sub", "p2"] });
      const db = join(suite.dir, "crash.sqlite");
      const log = join(suite.dir, "crash.log");
      const [line, nth] = at.split("#") as [string, string | undefined];
      const { child, exit } = startAsking(db, log, 150);
      await waitFor(() => count(logLines(log), line) >= Number(nth ?? 1));
      child.kill("SIGKILL");
      expect((await exit).signal).toBe("SIGKILL");
      expect(inspect(db, "t").integrity).toBe("ok");

      const resumed = await askingToEnd(db, log, 5);
      expect(resumed.resumed).toBe(true);
      expect([resumed.state, resumed.trace]).toEqual([expected.state, expected.trace]);
      const lines = logLines(log);
      expect(ASKING_NODES.map((node) => count(lines, `start ${node}`))).toEqual(starts);
      expect(committedWrites(db)).toEqual([[], ["p1"], ["top"], ["sub"], ["p2"]]);
      expect(childRows(db)).toBe(0);
    },
    60_000,
  );

  it("survives repeated kills at arbitrary moments (pauses, answers, the child's checkpoints): the final state is an uninterrupted run's", async () => {
    const expected = await askingToEnd(join(suite.dir, "clean.sqlite"), join(suite.dir, "clean.log"), 0);
    // A few fixed delays in npm test (each node takes ~3 ms); TSG_CRASH_KILLS=200 for the long version.
    await campaign("in-node interrupts", [1, 9, 4, 16, 2, 25], 40, async (db, log, killAfterMs) => {
      const kills = newCampaign();
      const killed = await killRepeatedly(
        killAfterMs,
        db,
        log,
        () => startAsking(db, log, 3),
        kills,
        () => committedAsking(db),
      );
      const outcome = killed ?? (await askingToEnd(db, log, 3));
      // The parent's steps: its subgraph's are counted through `sub`, and their repeats by askingCovers.
      const counts = report(kills, log, ["p1", "top", "sub", "p2"], committedWrites(db).flat(), killed === undefined, askingCovers);
      if (counts.lost + counts.doubled > 0) return counts;
      expect([outcome.state, outcome.trace]).toEqual([expected.state, expected.trace]);
      expect(committedWrites(db)).toEqual([[], ["p1"], ["top"], ["sub"], ["p2"]]);
      // A kill between the parent's commit and the removal of its child's thread leaves that thread behind:
      // a finished child, never read again (deleteThread of the parent removes it).
      expect(childLatest(db).filter((child) => child.next.length > 0)).toEqual([]);
      // A node starts again only when a kill caught it before its superstep committed.
      const lines = logLines(log);
      ASKING_NODES.forEach((node, index) => {
        expect(count(lines, `start ${node}`)).toBeLessThanOrEqual((ASKING_STARTS[index] as number) + killAfterMs.length);
      });
      return counts;
    });
  }, 600_000);
});

// Skips where the SQLite driver does not load (outside CI: driverStatus), because what it checks is SQLite's lock
// on one file shared by several processes.
describe.skipIf(!SQLITE_DRIVER_INSTALLED)(onDriver("several processes on one file"), () => {
  it("runs six processes at once on one file, each on its own threads: every run completes, every checkpoint is kept, the file is intact", async () => {
    const expected = await runToEnd(join(suite.dir, "clean.sqlite"), join(suite.dir, "clean.log"), "t", 0);
    const db = join(suite.dir, "shared.sqlite");
    const threads = Array.from({ length: 6 }, (_, i) => `p${i}`);
    const outcomes = await Promise.all(threads.map((thread) => runToEnd(db, join(suite.dir, `${thread}.log`), thread, 0)));
    for (const outcome of outcomes) expect([outcome.state, outcome.trace]).toEqual([expected.state, expected.trace]);
    for (const thread of threads) {
      const { integrity, checkpoints } = inspect(db, thread);
      expect(integrity).toBe("ok");
      expect(checkpoints.map((c) => c.metadata.writes)).toEqual([[], ...NODES.map((node) => [node])]);
    }
  }, 60_000);
});

// Skips where the SQLite driver does not load (outside CI: driverStatus), because it checks that opening a
// SqliteCheckpointer is what loads the driver, which needs the driver.
describe.skipIf(!SQLITE_DRIVER_INSTALLED)(onDriver("the package entry points"), () => {
  it(`importing the main entry and typed-state-graph/persistence loads no SQLite driver; opening a SqliteCheckpointer loads ${SQLITE_DRIVER}`, async () => {
    const script = `
      import { createRequire } from "node:module";
      import { pathToFileURL } from "node:url";
      const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((key) => /[\\/](libsql|better-sqlite3)[\\/]/.test(key));
      await import(pathToFileURL(${JSON.stringify(join(suite.buildDir, "index.js"))}).href);
      const { SqliteCheckpointer } = await import(pathToFileURL(${JSON.stringify(join(suite.buildDir, "persistence/index.js"))}).href);
      const before = loaded();
      new SqliteCheckpointer(":memory:", { driver: ${JSON.stringify(SQLITE_DRIVER)} }).close();
      console.log(JSON.stringify({ before, after: loaded() }));`;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    await new Promise((resolve) => child.on("exit", resolve));
    expect(JSON.parse(out)).toEqual({ before: false, after: true });
  }, 30_000);
});
