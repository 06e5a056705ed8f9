/**
 * DBOS's PostgreSQL dies mid-run (an immediate shutdown: connections cut) and comes back: DBOS 5 waits
 * and retries rather than fail (it trades availability for correctness), so the run finishes once the
 * server is back, with the state of an uninterrupted run, each node executed once, nothing recorded
 * lost. On its own server, so the other files' server is never stopped.
 */
import { DBOS } from "@dbos-inc/dbos-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerOnDBOS, runOnDBOS } from "../../src/dbos/index.js";
import { append, END, START, StateGraph } from "../../src/index.js";
import { startEmbeddedPostgres, type EmbeddedServer } from "../helpers/postgres.js";

interface Tally {
  total: number;
  log: string[];
}

const executions: string[] = [];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const slow = (name: string, update: (s: Tally) => number) => async (s: Tally) => {
  executions.push(name);
  await sleep(250);
  return { total: update(s), log: [name] };
};
const build = () =>
  new StateGraph<Tally>({ reducers: { log: append } })
    .addNode(
      "a",
      slow("a", (s) => s.total + 1),
    )
    .addNode(
      "b",
      slow("b", (s) => s.total * 5),
    )
    .addNode(
      "c",
      slow("c", (s) => s.total - 2),
    )
    .addEdge(START, "a")
    .addEdge("a", "b")
    .addEdge("b", "c")
    .addEdge("c", END)
    .compile();
const graph = registerOnDBOS(build(), { name: "server-down" });

let server: EmbeddedServer;
beforeAll(async () => {
  server = await startEmbeddedPostgres();
  DBOS.setConfig({ name: "tsg-server-down", systemDatabaseUrl: server.url, logLevel: "error" });
  await DBOS.launch();
}, 120_000);
afterAll(async () => {
  await DBOS.shutdown();
  await server?.stop();
}, 60_000);

describe("DBOS's PostgreSQL killed mid-run", () => {
  it("the run waits, finishes once the server is back, equal to an uninterrupted run; each node ran once", async () => {
    const running = runOnDBOS(graph, { total: 1, log: [] }, { workflowId: `down-${Date.now()}` });
    await sleep(350); // a has finished, b is running
    await server.kill();
    await sleep(1_000);
    await server.restart();
    const done = await running;
    const durable = [...executions];
    expect(done.state).toEqual((await build().invoke({ total: 1, log: [] })).state);
    expect(done.trace).toEqual(["a", "b", "c"]);
    expect(durable).toEqual(["a", "b", "c"]);
  }, 120_000);
});
