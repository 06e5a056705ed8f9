/**
 * What every store must do with a fixture written by an older release (the threads of
 * fixtures/schema-threads.mjs, migrated on open or connect): read each thread as that release's list()
 * did, resume the paused thread, re-run only the failed task of the parallel superstep (the kept write of
 * the other stays), fork from an old row and prune. SQLite's schema-vN.sqlite and PostgreSQL's
 * schema-vN.sql run it.
 */
import { readFileSync } from "node:fs";
import { expect } from "vitest";
import { append, END, START, StateGraph } from "../../src/index.js";
import type { Checkpoint, Checkpointer } from "../../src/persistence/index.js";
import { counterGraph } from "../helpers/graphs.js";

/** A fixture's .expected.json: each thread's checkpoints, newest first, as the release that wrote them listed them. */
export function expectedThreads(file: string): Record<string, Checkpoint[]> {
  return JSON.parse(readFileSync(file, "utf8")) as Record<string, Checkpoint[]>;
}

/** The checks above on a store opened on a migrated fixture; `keptWrites` is false for a release that kept none (SQLite schema 2). */
export async function checkMigratedThreads(
  checkpointer: Checkpointer & { prune(threadId: string, options: { keepLast: number }): Promise<{ removed: number }> },
  expected: Record<string, Checkpoint[]>,
  keptWrites = true,
): Promise<void> {
  for (const [thread, checkpoints] of Object.entries(expected)) expect(await checkpointer.list(thread), thread).toEqual(checkpoints);

  // The paused thread resumes: the new checkpoints follow the old rows, which read as before.
  const resumed = await counterGraph(2).invoke(null, { threadId: "paused", checkpointer });
  expect([resumed.status, resumed.trace]).toEqual(["done", ["inc", "inc", "done"]]);
  expect((await checkpointer.latest("paused"))?.trace).toEqual(["inc", "inc", "done"]);
  expect((await checkpointer.list("paused")).slice(1)).toEqual(expected.paused);

  // The failed parallel superstep: "left"'s write was kept, so only "right" runs again.
  const ran: string[] = [];
  const parallel = new StateGraph<{ log: string[] }>({ reducers: { log: append } })
    .addNode("left", () => (ran.push("left"), { log: ["left"] }))
    .addNode("right", () => (ran.push("right"), { log: ["right"] }))
    .addEdge(START, ["left", "right"])
    .addEdge(["left", "right"], END)
    .compile();
  expect((await parallel.invoke(null, { threadId: "parallel", checkpointer })).state.log).toEqual(["left", "right"]);
  expect(ran).toEqual(keptWrites ? ["right"] : ["left", "right"]);

  // A fork from an old row, then a prune that leaves the fork's chain without its start.
  const forked = expected.forked as Checkpoint[];
  const from = forked.at(-2) as Checkpoint;
  const fork = await counterGraph(2).invoke(null, { threadId: "forked", checkpointer, checkpointId: from.id });
  expect(fork.trace).toEqual(["inc", "inc", "done"]);
  const all = await checkpointer.list("forked");
  expect(all.length).toBeGreaterThan(forked.length);
  const before = all.slice(0, 3);
  expect((await checkpointer.prune("forked", { keepLast: 3 })).removed).toBe(all.length - 3);
  expect(await checkpointer.list("forked")).toEqual(before);
}
