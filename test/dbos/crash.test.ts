/**
 * Crash recovery across real processes: two worker processes (their own executor ids) work one DBOS
 * queue on one Postgres; the test SIGKILLs one at random moments and starts it again (DBOS recovers
 * the runs it owned at launch, and either worker picks them up). Every run finishes with the state of
 * an uninterrupted run, and no completed node ran again: every node execution is a row in a side
 * table, and none began after DBOS recorded its step's output. Two runs in three pause at a node's
 * `interrupt()` and are answered by the test while workers die, so paused and resumed runs are recovered
 * too; in half of those the node asks two subgraphs down, in a grandchild graph whose child workflows
 * the test checks as it checks the runs.
 *
 * `npm test` kills a few times; `TSG_DBOS_CRASH_KILLS=20` (or more) runs the long version.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { DBOSClient } from "@dbos-inc/dbos-sdk";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Outcome } from "../../src/dbos/_outcome.js";
import { LATEST_EVENT, pauseEvent, resumeTopic } from "../../src/dbos/_workflow.js";
import { freshDatabase } from "../helpers/postgres.js";
import { buildCrashGraph, crashInput } from "./fixtures/crash-graph.js";

const KILLS = Number(process.env.TSG_DBOS_CRASH_KILLS ?? 4);
const BATCH = 12;
const QUEUE = "crash-runs";
const WORKER = join(import.meta.dirname, "fixtures/crash-worker.ts");

let database: Awaited<ReturnType<typeof freshDatabase>>;
let client: DBOSClient;
let pool: pg.Pool;
const workers = new Map<string, ChildProcess>();
const killedPids = new Set<number>();

/** Starts the worker `executorId`; resolves once DBOS launched in it. */
function startWorker(executorId: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", WORKER, database.url, executorId, QUEUE], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  workers.set(executorId, child);
  let err = "";
  child.stderr?.on("data", (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("ready")) resolve(child);
    });
    child.on("exit", (code, signal) => reject(new Error(`worker ${executorId} exited (${code ?? signal}) before it was ready: ${err}`)));
  });
}

/** The run's node steps (DBOS's own operations, such as the events a stop sets, and its subgraphs' child workflows left out). */
async function nodeSteps(workflowId: string) {
  const steps = (await client.listWorkflowSteps(workflowId)) ?? [];
  return steps.filter((step) => !step.name.startsWith("DBOS.") && !step.name.startsWith("tsg-subgraph:"));
}

/** The run's workflow and its subgraphs' child workflows, at any depth. */
async function withChildren(workflowId: string): Promise<string[]> {
  const steps = (await client.listWorkflowSteps(workflowId)) ?? [];
  const children = [...new Set(steps.flatMap((step) => (typeof step.childWorkflowID === "string" ? [step.childWorkflowID] : [])))];
  return [workflowId, ...(await Promise.all(children.map(withChildren))).flat()];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  database = await freshDatabase("dbos_crash");
  pool = new pg.Pool({ connectionString: database.url, max: 2 });
  await pool.query("CREATE TABLE executions (workflow_id text, step_id int, node text, pid int, started_at bigint)");
  // The first worker creates DBOS's schema; the second starts once it exists.
  await startWorker("w1");
  await startWorker("w2");
  client = await DBOSClient.create({ systemDatabaseUrl: database.url, applicationName: "tsg-crash" });
}, 120_000);

afterAll(async () => {
  for (const child of workers.values()) child.kill("SIGKILL");
  await client?.destroy();
  await pool?.end();
  await database?.drop();
}, 60_000);

describe("two worker processes on one Postgres, one SIGKILLed at random moments", () => {
  it(`every run finishes as an uninterrupted run would, and no completed node runs again (${KILLS} kills)`, async () => {
    const ids: string[] = [];
    const enqueueBatch = async () => {
      for (let i = 0; i < BATCH; i++) {
        const seed = ids.length + 1;
        // Two runs in three pause in node d at an interrupt() (the third of them inside d's subgraph) and
        // are resumed by the test, across the kills.
        const kind = (["crash", "crash-ask", "crash-sub"] as const)[seed % 3] as string;
        const workflowID = `${kind}-${seed}`;
        ids.push(workflowID);
        if (kind !== "crash") asking.add(workflowID);
        const workflowName = `tsg:${kind}`;
        await client.enqueue({ workflowName, queueName: QUEUE, workflowID, appVersion: "crash-test" }, crashInput(seed), {});
      }
    };
    const pending = async () => {
      await answerPausedRuns();
      const statuses = await client.listWorkflows({ workflowIDs: ids });
      return statuses.filter((s) => s.status === "PENDING" || s.status === "ENQUEUED").length;
    };
    // A person answering each paused run (as resumeOnDBOS would, through the client): factor 3.
    const asking = new Set<string>();
    const answered = new Set<string>();
    let resumes = 0;
    const answerPausedRuns = async () => {
      for (const workflowId of asking) {
        const pause = await client.getEvent<number>(workflowId, LATEST_EVENT, 0);
        if (pause === null || answered.has(`${workflowId}:${pause}`)) continue;
        const outcome = await client.getEvent<Outcome>(workflowId, pauseEvent(pause), 0);
        if (outcome?.status !== "interrupted") continue;
        const [pending] = outcome.interrupt.interrupts ?? [];
        if (pending === undefined) throw new Error(`${workflowId} paused without an interrupt`);
        await client.send(workflowId, { resumes: { [pending.id]: 3 } }, resumeTopic(pause), `${workflowId}:resume:${pause}`);
        answered.add(`${workflowId}:${pause}`);
        resumes += 1;
      }
    };

    await enqueueBatch();
    let kills = 0;
    while (kills < KILLS) {
      if ((await pending()) === 0) await enqueueBatch();
      await sleep(150 + Math.random() * 600);
      await answerPausedRuns();
      const executorId = Math.random() < 0.5 ? "w1" : "w2";
      const victim = workers.get(executorId) as ChildProcess;
      killedPids.add(victim.pid as number);
      victim.kill("SIGKILL");
      kills += 1;
      await startWorker(executorId);
    }
    while ((await pending()) > 0) await sleep(200);

    const graph = buildCrashGraph();
    for (const [index, workflowId] of ids.entries()) {
      const outcome = await client.retrieveWorkflow<Outcome>(workflowId).getResult();
      const expected = await graph.invoke(crashInput(index + 1));
      expect(outcome.status, workflowId).toBe("done");
      expect(outcome.status === "done" && outcome.run.state, workflowId).toEqual(expected.state);
      expect(outcome.status === "done" && outcome.run.trace, workflowId).toEqual(expected.trace);
    }

    const { rows } = await pool.query<{ workflow_id: string; step_id: number; node: string; pid: number; started_at: string }>(
      "SELECT workflow_id, step_id, node, pid, started_at FROM executions ORDER BY started_at",
    );
    const again: string[] = [];
    const repeatedByALiveWorker: string[] = [];
    const workflows = (await Promise.all(ids.map(withChildren))).flat();
    for (const workflowId of workflows) {
      const steps = await nodeSteps(workflowId);
      for (const step of steps) {
        const executions = rows.filter((row) => row.workflow_id === workflowId && row.step_id === step.functionID);
        expect(executions.length, `${workflowId} step ${step.functionID} ran`).toBeGreaterThan(0);
        // Once its output is recorded, a node never starts again.
        for (const e of executions) if (Number(e.started_at) > (step.completedAtEpochMs ?? 0)) again.push(`${workflowId}/${step.name}`);
        // Only an execution cut short by a kill is ever repeated.
        for (const e of executions.slice(0, -1)) if (!killedPids.has(e.pid)) repeatedByALiveWorker.push(`${workflowId}/${step.name}`);
      }
    }
    const stepCount = (await Promise.all(workflows.map(async (id) => (await nodeSteps(id)).length))).reduce((a, b) => a + b, 0);
    const inChild = ids.filter((id) => id.startsWith("crash-sub-")).length;
    console.info(
      `crash test: ${ids.length} runs (${asking.size} paused at an interrupt() and resumed, ${inChild} of them inside a subgraph; ${resumes} resumes), ${workflows.length - ids.length} child workflows, ${kills} kills, ${stepCount} recorded node steps, ${rows.length} node executions (${rows.length - stepCount} repeated after a kill)`,
    );
    // Every subgraph run's child ran in a child workflow (its prep and d steps recorded there).
    expect(workflows.length - ids.length).toBeGreaterThanOrEqual(inChild);
    expect(again).toEqual([]);
    expect(repeatedByALiveWorker).toEqual([]);
    expect(kills).toBeGreaterThanOrEqual(KILLS);
    expect(resumes).toBeGreaterThanOrEqual(asking.size);
  }, 600_000);
});
