/**
 * `tsg history --versions` and `tsg migrate --dry-run` on the review graph's version-1 fixture (four
 * threads: a static pause, pending Sends, a failed superstep with kept writes, an interrupt inside a
 * subgraph), through the built CLI in a child process: which version each thread is on, what resuming
 * it on version 2 (all migrate) and 3 (one refused, its point listed) would do, and the rows unchanged.
 * The same listing on PostgreSQL, by connection string.
 */
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { threadIdsOf } from "../../src/cli/stored-threads.js";
import { END, START, StateGraph } from "../../src/index.js";
import { MemoryCheckpointer, type Checkpointer } from "../../src/persistence/index.js";
import { PostgresCheckpointer } from "../../src/postgres/index.js";
import { freshSchemaName, postgresUrl } from "../helpers/postgres.js";
import { rawConnection } from "../persistence/_helpers.js";
import { assertBuilt, runTsg } from "./_child.js";

const FIXTURE = join(import.meta.dirname, "../engine/threads/versions/fixtures/review-v1.sqlite");
const GRAPHS = "./test/cli/fixtures/review-versions.ts";
const dir = mkdtempSync(join(tmpdir(), "tsg-migrate-"));
const db = join(dir, "review-v1.sqlite");
beforeAll(() => {
  assertBuilt();
  copyFileSync(FIXTURE, db);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every row of the file's two tables, as text: what "writes nothing" compares. */
function rows(): string {
  const conn = rawConnection(db, "readonly");
  try {
    return JSON.stringify([
      conn.prepare("SELECT * FROM tsg_checkpoints ORDER BY seq").all(),
      conn.prepare("SELECT * FROM tsg_writes ORDER BY checkpoint_seq, task").all(),
    ]);
  } finally {
    conn.close();
  }
}

describe("on a SQLite file", () => {
  it("tsg history --versions lists each thread with the version of its latest checkpoint", async () => {
    const { code, stdout } = await runTsg(["history", "--versions", "--db", db]);
    expect(code).toBe(0);
    expect(stdout.split("\n")).toEqual([
      `${db}: 4 threads by the graph version of their latest checkpoint (version 1: 4)`,
      "thread    version  spec  step  next",
      "failed    1        -     1     write, write",
      "sends     1        -     1     write, write",
      "static    1        -     4     publish",
      "subgraph  1        -     3     review",
      "",
    ]);
  });

  it("tsg migrate --dry-run: every thread migrates to version 2 (exit 0); version 3 refuses the thread paused before its removed node (exit 3); no row changes", async () => {
    const before = rows();
    const v2 = await runTsg(["migrate", "--db", db, "--graph", `${GRAPHS}#v2`, "--dry-run"], { deadlineMs: 60_000 });
    expect({ code: v2.code, stderr: v2.stderr }).toEqual({ code: 0, stderr: "" });
    expect(v2.stdout.split("\n").slice(1)).toEqual([
      "  failed: migrates from version 1 to 2",
      "  sends: migrates from version 1 to 2",
      "  static: migrates from version 1 to 2",
      "  subgraph: migrates from version 1 to 2",
      "",
    ]);
    const v3 = await runTsg(["migrate", "--db", db, "--graph", `${GRAPHS}#v3`, "--dry-run"], { deadlineMs: 60_000 });
    expect(v3.code).toBe(3);
    expect(v3.stdout).toContain("(dry run: nothing written), 1 refused\n");
    expect(v3.stdout).toMatch(/ {2}static: refused \(UNMAPPED_RESUME_POINT, version 1\): checkpoint .* cannot continue on version 3/);
    expect(v3.stdout).toContain('\n    - tasks[0]: the next task, "release" (before:release)\n');
    expect(rows()).toBe(before);
  });

  it("refuses to run without --dry-run, or without a compiled graph (exit 2)", async () => {
    const wet = await runTsg(["migrate", "--db", db, "--graph", `${GRAPHS}#v2`]);
    expect(wet.code).toBe(2);
    expect(wet.stderr).toContain("only --dry-run is available");
    expect((await runTsg(["migrate", "--db", db, "--graph", "report", "--dry-run"])).code).toBe(2);
  });
});

describe("a store without listThreads", () => {
  it("is refused with what the command needs", async () => {
    const store = new MemoryCheckpointer();
    const bare: Checkpointer = {
      save: (c, e) => store.save(c, e),
      latest: (t) => store.latest(t),
      get: (t, id) => store.get(t, id),
      list: (t, o) => store.list(t, o),
      deleteThread: (t) => store.deleteThread(t),
      putWrites: (t, id, w) => store.putWrites(t, id, w),
    };
    await expect(threadIdsOf(bare, "tsg migrate")).rejects.toThrow(
      "tsg migrate lists every thread of the store, and this store has no listThreads(): add listThreads(): Promise<string[]> to it",
    );
    expect(await threadIdsOf(store, "tsg migrate")).toEqual([]);
  });
});

describe("on PostgreSQL, by connection string", () => {
  it("tsg history --versions lists its threads", async () => {
    const schema = freshSchemaName("cliversions");
    const checkpointer = await PostgresCheckpointer.connect(postgresUrl(), { schema });
    try {
      const graph = (version: number) =>
        new StateGraph<{ n: number }>()
          .addNode("inc", (s) => ({ n: s.n + 1 }))
          .addEdge(START, "inc")
          .addEdge("inc", END)
          .compile({ version, checkpointer });
      await graph(1).invoke({ n: 0 }, { threadId: "old" });
      await graph(2).invoke({ n: 0 }, { threadId: "new" });
    } finally {
      await checkpointer.close();
    }
    const { code, stdout, stderr } = await runTsg(["history", "--versions", "--db", postgresUrl(), "--schema", schema], {
      deadlineMs: 60_000,
    });
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    const lines = stdout.split("\n");
    expect(lines[0]).toMatch(/: 2 threads by the graph version of their latest checkpoint \(version 1: 1, version 2: 1\)$/);
    expect(lines.slice(2).map((line) => line.split(/ +/).slice(0, 2))).toEqual([["new", "2"], ["old", "1"], [""]]);
  });
});
