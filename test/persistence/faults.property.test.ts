/**
 * Properties of the stores' fault handling: whatever a damaged file or a caller hands over, the answer
 * is a coded library error or a correct result, never a raw SyntaxError, TypeError or driver error,
 * and never a silently different checkpoint.
 */
import { fc, test } from "@fast-check/vitest";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { InvalidOptionError } from "../../src/errors.js";
import { MemoryCheckpointer, PersistenceError, type Checkpoint, type SqliteCheckpointer } from "../../src/persistence/index.js";
import { counterGraph, counterInput } from "../helpers/graphs.js";
import { onDriver, openSqlite, rawConnection, SQLITE_DRIVER_INSTALLED, tempDir } from "./_helpers.js";

const RUNS = { numRuns: 60 };

let dir = "";
let remove: () => void = () => undefined;
let file = "";
let original: { id: string; body: string; checksum: string } | undefined;

beforeAll(async () => {
  ({ dir, remove } = tempDir());
  if (!SQLITE_DRIVER_INSTALLED) return;
  file = join(dir, "p.sqlite");
  const checkpointer = openSqlite(file);
  await counterGraph(2).invoke(counterInput(), { threadId: "t1", checkpointer });
  checkpointer.close();
  const db = rawConnection(file);
  original = db
    .prepare<[], { id: string; body: string; checksum: string }>("SELECT id, body, checksum FROM tsg_checkpoints ORDER BY seq DESC LIMIT 1")
    .get();
  db.close();
});
afterAll(() => remove());

/** Stores `body` (and `checksum`) as the thread's latest checkpoint, reads it back, and restores the original. */
async function readBack(body: string, checksum: string | null): Promise<{ value?: Checkpoint; error?: unknown }> {
  if (original === undefined) throw new Error("no checkpoint");
  const db = rawConnection(file);
  const update = db.prepare<[string, string | null, string]>("UPDATE tsg_checkpoints SET body = ?, checksum = ? WHERE id = ?");
  update.run(body, checksum, original.id);
  let checkpointer: SqliteCheckpointer | undefined;
  try {
    checkpointer = openSqlite(file);
    const value = await checkpointer.latest("t1");
    return value === undefined ? {} : { value };
  } catch (error) {
    return { error };
  } finally {
    checkpointer?.close();
    update.run(original.body, original.checksum, original.id);
    db.close();
  }
}

// Skipped (with a printed message) only when TSG_SQLITE_DRIVER names a driver that is not installed; .ci/run makes that a failure.
describe.skipIf(!SQLITE_DRIVER_INSTALLED)(onDriver("a damaged checkpoint body"), () => {
  test.prop([fc.nat(), fc.string({ minLength: 1, maxLength: 3 })], RUNS)(
    "any change to a stored body is CHECKPOINT_CORRUPT, never a silently different checkpoint",
    async (at, replacement) => {
      const body = original?.body ?? "";
      const position = at % body.length;
      const changed = body.slice(0, position) + replacement + body.slice(position + 1);
      fc.pre(changed !== body);
      const { value, error } = await readBack(changed, original?.checksum ?? null);
      expect(value).toBeUndefined();
      expect(error).toBeInstanceOf(PersistenceError);
      expect(error).toMatchObject({ code: "CHECKPOINT_CORRUPT", threadId: "t1", checkpointId: original?.id });
    },
  );

  test.prop([fc.oneof(fc.jsonValue(), fc.string())], RUNS)(
    "any body without a checksum is either a whole checkpoint or CHECKPOINT_CORRUPT",
    async (stored) => {
      const { value, error } = await readBack(typeof stored === "string" ? stored : JSON.stringify(stored), null);
      if (error === undefined) expect(value).toMatchObject({ id: original?.id, threadId: "t1" });
      else expect(error).toMatchObject({ name: "PersistenceError", code: "CHECKPOINT_CORRUPT" });
    },
  );
});

describe("list({ limit }) with any value", () => {
  const stores: [string, () => { list: MemoryCheckpointer["list"]; close(): void }][] = [
    ["MemoryCheckpointer", () => Object.assign(new MemoryCheckpointer(), { close: () => undefined })],
    ...(SQLITE_DRIVER_INSTALLED ? [["SqliteCheckpointer", () => openSqlite(":memory:")] as [string, () => SqliteCheckpointer]] : []),
  ];
  for (const [name, open] of stores) {
    test.prop([fc.anything()], RUNS)(`${name}: a positive integer (or none) lists, anything else is INVALID_OPTION`, async (limit) => {
      const store = open();
      try {
        const outcome = await store.list("t1", { limit: limit as number }).catch((error: unknown) => error);
        if (limit === undefined || (Number.isSafeInteger(limit) && (limit as number) > 0)) expect(outcome).toEqual([]);
        else expect(outcome).toBeInstanceOf(InvalidOptionError);
      } finally {
        store.close();
      }
    });
  }
});
