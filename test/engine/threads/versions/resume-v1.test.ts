/**
 * Threads written by version 1 of the review graph, before graphs had versions (fixtures/review-v1.sqlite,
 * made by make-review-v1.mjs with the d4ad3c4 build), continue on version 2 (issue 42 §3): paused before
 * a node that was renamed, inside a subgraph's interrupt(), with pending Sends to a node that was split,
 * and failed mid-superstep with a kept write. Each finishes with the state of a thread that ran on
 * version 2 from the start. Version 3, which removes the node one of them is paused before and maps
 * nothing there, refuses it, listing it, and the stored rows stay as they were. On SQLite, on PostgreSQL
 * (fixtures/review-v1.postgres.sql: the same threads written by d4ad3c4's PostgresCheckpointer, schema 1,
 * made by make-review-v1-postgres.ts) and in memory.
 */
import { copyFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Command } from "../../../../src/index.js";
import { type Checkpoint, type Checkpointer, MemoryCheckpointer, PersistenceError } from "../../../../src/persistence/index.js";
import { PostgresCheckpointer } from "../../../../src/postgres/index.js";
import { freshSchemaName, postgresUrl } from "../../../helpers/postgres.js";
import { loadSchemaDump } from "../../../postgres/_schema-dump.js";
import { openSqlite, rawConnection, SQLITE_DRIVER_INSTALLED, tempDir } from "../../../persistence/_helpers.js";
import { type ReviewV2, reviewInputV2, reviewV2, reviewV3 } from "./review-versions.js";

const FIXTURES = join(import.meta.dirname, "fixtures");
const THREADS = ["sends", "subgraph", "static", "failed"] as const;

let dir = "";
let remove: () => void = () => undefined;
beforeEach(() => ({ dir, remove } = tempDir()));
afterEach(() => remove());

/** The fixture's threads in a MemoryCheckpointer: each checkpoint saved oldest first, as version 1 saved them. */
async function memoryFixture(): Promise<MemoryCheckpointer> {
  const rows = JSON.parse(readFileSync(join(FIXTURES, "review-v1.rows.json"), "utf8")) as Record<string, Checkpoint[]>;
  const checkpointer = new MemoryCheckpointer();
  for (const checkpoints of Object.values(rows)) {
    for (const checkpoint of [...checkpoints].reverse()) await checkpointer.save(checkpoint, checkpoint.parentId);
  }
  return checkpointer;
}

/** Runs a thread of version 2 to its end, answering the review with true: resumes with null, answers with a Command. */
async function finish(checkpointer: Checkpointer, threadId: string) {
  const graph = reviewV2(checkpointer);
  for (let turn = 0; turn < 6; turn++) {
    const state = await graph.getState(threadId);
    if (state === undefined) throw new Error(`no thread ${threadId}`);
    if (state.next.length === 0) return state.state;
    const asking = (state.interrupts?.length ?? 0) > 0;
    await graph.invoke(asking ? new Command({ resume: true }) : null, { threadId });
  }
  throw new Error(`thread ${threadId} did not finish`);
}

/** The final state of a thread that ran on version 2 from the start. */
async function fromTheStart(): Promise<ReviewV2> {
  const checkpointer = new MemoryCheckpointer();
  await reviewV2(checkpointer).invoke(reviewInputV2(), { threadId: "v2" });
  return finish(checkpointer, "v2");
}

/** The fixture's schema on the run's server, its rows read as stored (every table, in key order). */
async function postgresFixture() {
  const schema = freshSchemaName("review_v1");
  await loadSchemaDump(postgresUrl(), join(FIXTURES, "review-v1.postgres.sql"), schema);
  const checkpointer = await PostgresCheckpointer.connect(postgresUrl(), { schema });
  const client = new pg.Client({ connectionString: postgresUrl() });
  await client.connect();
  const rows = async () => [
    (await client.query(`SELECT * FROM ${schema}.tsg_checkpoints ORDER BY seq`)).rows,
    (await client.query(`SELECT * FROM ${schema}.tsg_writes ORDER BY checkpoint_seq, task`)).rows,
    (await client.query(`SELECT * FROM ${schema}.tsg_threads ORDER BY thread_id`)).rows,
  ];
  return { checkpointer, rows, close: async () => (await checkpointer.close(), await client.end()) };
}

describe.each([
  ["SQLite", SQLITE_DRIVER_INSTALLED],
  ["PostgreSQL", true],
  ["memory", true],
] as const)("version-1 threads on %s", (store, available) => {
  const open = async (): Promise<{ checkpointer: Checkpointer; rows: () => unknown; close: () => unknown }> => {
    if (store === "PostgreSQL") return postgresFixture();
    if (store === "memory") {
      const checkpointer = await memoryFixture();
      return {
        checkpointer,
        rows: () => Promise.all(THREADS.map((thread) => checkpointer.list(thread))),
        close: () => undefined,
      };
    }
    const file = join(dir, "review-v1.sqlite");
    copyFileSync(join(FIXTURES, "review-v1.sqlite"), file);
    const checkpointer = openSqlite(file);
    const rows = () => {
      const db = rawConnection(file, "readonly");
      try {
        return [
          db.prepare("SELECT * FROM tsg_checkpoints ORDER BY seq").all(),
          db.prepare("SELECT * FROM tsg_writes ORDER BY checkpoint_seq, task").all(),
        ];
      } finally {
        db.close();
      }
    };
    return { checkpointer, rows, close: () => checkpointer.close() };
  };

  describe.skipIf(!available)("", () => {
    it.each(THREADS)("thread %s resumes on version 2 and ends with the state of a version-2 thread", async (thread) => {
      const expected = await fromTheStart();
      const { checkpointer, close } = await open();
      try {
        expect(await finish(checkpointer, thread)).toEqual(expected);
        // The migration was written once, as its own checkpoint after the version-1 ones, which stay as history.
        const history = await checkpointer.list(thread);
        const migrated = history.filter((checkpoint) => checkpoint.metadata.migratedFrom !== undefined);
        expect(migrated.map((checkpoint) => [checkpoint.metadata.migratedFrom, checkpoint.graph?.version])).toEqual([[1, 2]]);
        expect(history.at(-1)?.graph).toBeUndefined();
        expect(history[0]?.graph?.version).toBe(2);
      } finally {
        await close();
      }
    });

    it("reads a version-1 thread migrated, in memory: getState writes nothing", async () => {
      const { checkpointer, rows, close } = await open();
      try {
        const before = await rows();
        const state = await reviewV2(checkpointer).getState("static");
        expect(state?.next).toEqual(["release"]);
        expect(state?.state).toMatchObject({ audience: "everyone", polished: true, approved: true });
        expect(state?.graph?.version).toBe(2);
        const failed = await reviewV2(checkpointer).getState("failed");
        expect(failed?.pendingWrites?.map((write) => write.node)).toEqual(["draft"]);
        expect(await rows()).toEqual(before);
      } finally {
        await close();
      }
    });

    it("version 3, which removed release and maps nothing to it, refuses the thread paused before publish, listing it; rows unchanged", async () => {
      const { checkpointer, rows, close } = await open();
      try {
        const before = await rows();
        const error = await reviewV3()
          .invoke(null, { threadId: "static", checkpointer })
          .catch((e: unknown) => e);
        expect(error).toBeInstanceOf(PersistenceError);
        expect(error).toMatchObject({ code: "UNMAPPED_RESUME_POINT", threadId: "static" });
        expect((error as Error).message).toContain("cannot continue on version 3: 1 resume point names nodes this graph does not have");
        expect((error as Error).message).toContain('  - tasks[0]: the next task, "release" (before:release)');
        expect((error as Error).message).toContain('migrateFrom(spec, { from: 1, nodes: { oldName: "newName" } })');
        expect(await rows()).toEqual(before);
        // The thread paused before the split node continues on version 3 through both migrations.
        const sends = await reviewV3().invoke(null, { threadId: "sends", checkpointer });
        expect(sends).toMatchObject({ status: "interrupted", next: ["review"] });
        expect(sends.state).toMatchObject({ drafts: ["draft a", "draft b"], polished: true, audience: "everyone" });
      } finally {
        await close();
      }
    });
  });
});
