/**
 * `Command.PARENT` on a thread (issue 38 §2), on the memory store and SQLite: the handoff is decided
 * inside the child's superstep, so nothing new is stored (the child's thread is removed once the
 * parent's superstep commits, as for any subgraph task), and a pause inside the child before the
 * handoff resumes there and hands off.
 */
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Command } from "../../src/index.js";
import { MemoryCheckpointer } from "../../src/persistence/index.js";
import type { Checkpointer } from "../../src/engine/checkpointer.js";
import { handoffParent } from "../engine/_handoff.js";
import { openSqlite, SQLITE_DRIVER_INSTALLED, tempDir } from "./_helpers.js";

const dirs: { remove(): void }[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) dir.remove();
});

const stores: [string, boolean, () => Checkpointer][] = [
  ["memory", true, () => new MemoryCheckpointer()],
  [
    "SQLite",
    SQLITE_DRIVER_INSTALLED,
    () => {
      const dir = tempDir();
      dirs.push(dir);
      return openSqlite(join(dir.dir, "threads.db"));
    },
  ],
];

describe.each(stores)("Command.PARENT on a thread (%s)", (_name, runs, open) => {
  it.runIf(runs)("hands off as invoke does; the parent's history has the handoff as sub's update, the child's thread is gone", async () => {
    const checkpointer = open();
    const graph = handoffParent();
    const result = await graph.invoke({ log: [], who: "none" }, { threadId: "t", checkpointer });
    expect(result).toMatchObject({ status: "done", state: { log: ["p0", "c1", "after", "billing"], who: "c1" } });
    const history = (await graph.getStateHistory("t", { checkpointer })).reverse();
    expect(history.at(-1)?.next).toEqual([]);
    const afterSub = history.find((snapshot) => snapshot.next.includes("billing"));
    expect(afterSub?.state).toEqual({ log: ["p0", "c1"], who: "c1" });
    expect(await checkpointer.listThreads?.()).toEqual(["t"]);
  });

  it.runIf(runs)("a pause inside the child before the handoff resumes there, then hands off", async () => {
    const checkpointer = open();
    const graph = handoffParent(true);
    const paused = await graph.invoke({ log: [], who: "none" }, { threadId: "t", checkpointer });
    expect(paused.status).toBe("interrupted");
    expect(paused.next).toEqual(["sub"]);
    const done = await graph.invoke(new Command({ resume: "billing desk" }), { threadId: "t", checkpointer });
    expect(done).toMatchObject({ status: "done", state: { log: ["p0", "c1", "after", "billing"], who: "c1" } });
    expect(done.trace).toEqual(["p0", "sub", "after", "billing"]);
  });
});
