/**
 * The row body SqliteCheckpointer writes: a run's checkpoints keep the text of the state fields a
 * superstep did not change (sqlite/body.ts, engine/threads/state-json.ts), and the body is still the
 * text `JSON.stringify` makes of the checkpoint (its pending writes, trace and routes apart).
 */
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { append, END, START, StateGraph } from "../../src/index.js";
import { onDriver, openSqlite, rawConnection, SQLITE_DRIVER_INSTALLED, tempDir } from "./_helpers.js";

let dir = "";
let remove: () => void = () => undefined;
beforeEach(() => ({ dir, remove } = tempDir()));
afterEach(() => remove());

interface Draft {
  rows: { city: string; temperature: number }[];
  notes: { text: string; tags: string[] };
  log: string[];
  count: number;
  optional?: string;
}

/** Each superstep changes some fields and leaves the others; `notes` is replaced by a new value with the same text once. */
const graph = new StateGraph<Draft>({ reducers: { log: append } })
  .addNode("collect", (s) => ({ rows: [...s.rows, { city: "Tokyo", temperature: 18.5 }], log: ["collect"] }))
  .addNode("tag", (s) => ({ notes: { ...s.notes, tags: [...s.notes.tags, 'checked "twice"'] }, count: s.count + 1 }))
  .addNode("same", (s) => ({ notes: { text: s.notes.text, tags: [...s.notes.tags] }, log: ["same"] }))
  .addNode("edit", (s) => ({ rows: s.rows.map((row) => ({ ...row, temperature: row.temperature + 0.1 })), optional: "set" }))
  .addEdge(START, "collect")
  .addEdge("collect", "tag")
  .addEdge("tag", "same")
  .addEdge("same", "edit")
  .addEdge("edit", END)
  .compile();

const input: Draft = { rows: [], notes: { text: "first", tags: [] }, log: [], count: 0 };

describe.skipIf(!SQLITE_DRIVER_INSTALLED)(onDriver("SqliteCheckpointer's row body"), () => {
  it.each(["sync", "async"] as const)(
    "is JSON.stringify's text of each checkpoint of a run, its fields as the run had them (%s)",
    async (durability) => {
      const file = join(dir, `body-${durability}.sqlite`);
      const checkpointer = openSqlite(file);
      const done = await graph.invoke(input, { threadId: "t", checkpointer, durability });
      // A second run on the thread merges its input onto the state (equal values, new objects; the log appends).
      const again = await graph.invoke({ ...done.state, log: ["again"] }, { threadId: "t", checkpointer, durability });
      const history = (await checkpointer.list("t")).reverse();
      const states = history.map((c) => c.state as unknown as Draft);
      checkpointer.close();
      const db = rawConnection(file, "readonly");
      const bodies = db
        .prepare<[string], { body: string }>("SELECT body FROM tsg_checkpoints WHERE thread_id = ? ORDER BY seq")
        .all("t")
        .map((row) => row.body);
      db.close();
      expect(bodies.length).toBe(10);
      expect(history[4]?.state).toEqual(done.state);
      expect(history[9]?.state).toEqual(again.state);
      bodies.forEach((body, index) => {
        const { pendingWrites: _writes, trace: _trace, routes: _routes, ...stored } = history[index] as (typeof history)[number];
        expect(body).toBe(JSON.stringify(stored));
      });
      expect(states.map((state) => state.notes.tags.length)).toEqual([0, 0, 1, 1, 1, 1, 1, 2, 2, 2]);
      expect(states.map((state) => state.rows.map((row) => row.temperature.toFixed(1)).join())).toEqual([
        "",
        "18.5",
        "18.5",
        "18.5",
        "18.6",
        "18.6",
        "18.6,18.5",
        "18.6,18.5",
        "18.6,18.5",
        "18.7,18.6",
      ]);
      expect(states.map((state) => state.optional ?? "-").join("")).toBe("----setsetsetsetsetset");
      expect(states[9]?.log).toEqual(["collect", "same", "again", "collect", "same"]);
    },
  );
});
