/**
 * A graph has a version (issue 42 §1): `compile({ version })`, default 1, recorded on every checkpoint
 * with the spec's hash; a checkpoint written before versions (the schema-6 fixture) has no stamp and
 * counts as version 1.
 */
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { append, END, InvalidOptionError, START, StateGraph } from "../../../../src/index.js";
import { specHash } from "../../../../src/engine/spec-hash.js";
import { versionOf } from "../../../../src/engine/threads/versions/graph-version.js";
import { MemoryCheckpointer, PersistenceError } from "../../../../src/persistence/index.js";
import { openSqlite, rawConnection, SQLITE_DRIVER_INSTALLED, tempDir } from "../../../persistence/_helpers.js";
import { counterGraph, counterInput } from "../../../helpers/graphs.js";

let dir = "";
let remove: () => void = () => undefined;
beforeEach(() => ({ dir, remove } = tempDir()));
afterEach(() => remove());

const counter = (version?: number) =>
  new StateGraph<{ n: number; log: string[] }>({ reducers: { log: append } })
    .addNode("inc", (s) => ({ n: s.n + 1, log: ["inc"] }))
    .addEdge(START, "inc")
    .addEdge("inc", END)
    .compile(version === undefined ? {} : { version });

describe("compile({ version })", () => {
  it("stamps every checkpoint with the version (default 1) and the spec's hash", async () => {
    for (const [graph, version] of [
      [counter(), 1],
      [counter(3), 3],
    ] as const) {
      const checkpointer = new MemoryCheckpointer();
      await graph.invoke({ n: 0, log: [] }, { threadId: "t", checkpointer });
      const history = await checkpointer.list("t");
      expect(history.length).toBeGreaterThan(1);
      for (const checkpoint of history) expect(checkpoint.graph).toEqual({ version, specHash: specHash(graph.spec) });
    }
  });

  it.each([0, -1, 1.5, "2", Number.NaN, null])("refuses version %j with INVALID_OPTION", (version) => {
    const compile = () => counter(version as number);
    expect(compile).toThrow(InvalidOptionError);
    expect(compile).toThrow(/^compile: version must be a whole number from 1, e\.g\. \{ version: 2 \}; got /);
  });
});

describe.skipIf(!SQLITE_DRIVER_INSTALLED)("a checkpoint written before versions (SQLite schema 6)", () => {
  it("has no stamp and counts as version 1; one written now carries its graph's", async () => {
    const file = join(dir, "v6.sqlite");
    copyFileSync(join(import.meta.dirname, "../../../persistence/fixtures/schema-v6.sqlite"), file);
    const checkpointer = openSqlite(file);
    try {
      const old = await checkpointer.latest("paused");
      expect(old?.graph).toBeUndefined();
      expect(old === undefined ? 0 : versionOf(old)).toBe(1);
      await counterGraph(2).invoke(counterInput(), { threadId: "new", checkpointer });
      expect((await checkpointer.latest("new"))?.graph).toEqual({ version: 1, specHash: specHash(counterGraph(2).spec) });
    } finally {
      checkpointer.close();
    }
  });

  it("a stored stamp that is not { version, specHash } is CHECKPOINT_CORRUPT", async () => {
    const file = join(dir, "stamp.sqlite");
    const checkpointer = openSqlite(file);
    await counterGraph(2).invoke(counterInput(), { threadId: "t", checkpointer });
    checkpointer.close();
    const db = rawConnection(file);
    db.prepare("UPDATE tsg_checkpoints SET body = replace(body, '\"version\":1', '\"version\":0'), checksum = NULL").run();
    db.close();
    const reopened = openSqlite(file);
    try {
      const error = await reopened.latest("t").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PersistenceError);
      expect(error).toMatchObject({ code: "CHECKPOINT_CORRUPT" });
      expect((error as Error).message).toContain("its field graph is not { version: a whole number from 1, specHash: a string }");
    } finally {
      reopened.close();
    }
  });
});
