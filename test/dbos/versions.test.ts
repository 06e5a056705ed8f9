/**
 * A run paused by a worker of version 1 continues on a worker of version 2 (issue 42 §5). DBOS recovers
 * a workflow only in a process of the application version that started it, so the version-2 worker
 * (this process, application version "v2") continues it with `continueOnDBOS`: the run's last stop goes
 * through the graph's migrations (a node renamed, a required field added by the state migration), the
 * old workflow is cancelled, and a new one pauses where it stood; resumed, it finishes with the state of
 * a run that was on version 2 from the start. A version 3 that removed the node a run paused before,
 * and maps nothing there, refuses it with UNMAPPED_RESUME_POINT, and the old run is left as it was.
 * Versions 1 and 3 run in their own worker processes (fixtures/version-worker.ts).
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { DBOS } from "@dbos-inc/dbos-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { continueOnDBOS, DBOSRunError, registerOnDBOS, resumeOnDBOS, runOnDBOS } from "../../src/dbos/index.js";
import { LATEST_EVENT, pauseEvent } from "../../src/dbos/_workflow.js";
import { freshDatabase } from "../helpers/postgres.js";
import { draftInputV2, draftV2 } from "./fixtures/version-graphs.js";

const WORKER = join(import.meta.dirname, "fixtures/version-worker.ts");
const graph = registerOnDBOS(draftV2(), { name: "draft" });

let database: Awaited<ReturnType<typeof freshDatabase>> | undefined;

/** Runs the version worker to its end; resolves with the JSON line it printed. */
function worker(mode: "v1" | "v3", ...ids: string[]): Promise<Record<string, unknown>> {
  const child = spawn(process.execPath, ["--import", "tsx", WORKER, database?.url ?? "", mode, ...ids], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on("exit", (code) => {
      if (code === 0) resolve(JSON.parse(out.trim().split("\n").at(-1) ?? "null") as Record<string, unknown>);
      else reject(new Error(`the ${mode} worker exited with ${code}: ${err}`));
    });
  });
}

beforeAll(async () => {
  database = await freshDatabase("dbos_versions");
  // Version 1's worker pauses the runs, then stops: they wait on a version no worker runs any more.
  await expect(worker("v1", "static", "inside")).resolves.toEqual({ static: "interrupted", inside: "interrupted" });
  await expect(worker("v1", "refused", "refused-inside")).resolves.toEqual({ static: "interrupted", inside: "interrupted" });
  DBOS.setConfig({ name: "tsg-versions", systemDatabaseUrl: database.url, applicationVersion: "v2", logLevel: "error" });
  await DBOS.launch();
}, 180_000);

afterAll(async () => {
  await DBOS.shutdown();
  await database?.drop();
}, 60_000);

/** The state and trace of a run of version 2 from the start: answered true, then the go-ahead before release. */
async function fromTheStart() {
  const workflowId = `v2-${Date.now()}`;
  await runOnDBOS(graph, draftInputV2(), { workflowId });
  await resumeOnDBOS(graph, workflowId, { resume: true });
  const { state, trace } = await resumeOnDBOS(graph, workflowId);
  return { state, trace };
}

describe("a run paused by version 1, continued by a worker of version 2", () => {
  it("DBOS does not recover it here: it waits, stamped with version 1's application version", async () => {
    // Version 1's worker shut down and put it back on its queue, where only a worker of version 1 takes it.
    const status = await DBOS.getWorkflowStatus("static");
    expect(status).toMatchObject({ status: "ENQUEUED", applicationVersion: "v1", workflowName: "tsg:draft" });
  });

  it("paused before publish: continues before release with the migrated state, and finishes as a version-2 run", async () => {
    const paused = await continueOnDBOS(graph, "static", { workflowId: "static.v2" });
    expect(paused).toMatchObject({ status: "interrupted", workflowId: "static.v2", interrupt: { when: "before", nodes: ["release"] } });
    expect(paused.state).toEqual({ topic: "tides", log: ["write tides"], approved: true, audience: "everyone" });
    expect(paused.trace).toEqual(["write", "ask"]);
    expect(await DBOS.getWorkflowStatus("static")).toMatchObject({ status: "CANCELLED" });
    expect(await DBOS.getWorkflowStatus("static.v2")).toMatchObject({ applicationVersion: "v2" });

    const done = await resumeOnDBOS(graph, "static.v2");
    expect({ state: done.state, trace: done.trace }).toEqual(await fromTheStart());
    expect(done.state.log).toEqual(["write tides", "release true to everyone"]);
  });

  it("paused inside a node's interrupt(): the same interrupt waits on version 2, and its answer finishes the run", async () => {
    const paused = await continueOnDBOS(graph, "inside", { workflowId: "inside.v2" });
    expect(paused).toMatchObject({ status: "interrupted", interrupt: { when: "during", nodes: ["ask"] } });
    if (paused.status !== "interrupted") throw new Error("expected a pause");
    expect(paused.interrupt.interrupts?.map((pending) => pending.value)).toEqual([{ question: "publish?" }]);
    expect(paused.state).toEqual({ topic: "tides", log: ["write tides"], approved: null, audience: "everyone" });

    const before = await resumeOnDBOS(graph, "inside.v2", { resume: true });
    expect(before).toMatchObject({ status: "interrupted", interrupt: { when: "before", nodes: ["release"] } });
    const done = await resumeOnDBOS(graph, "inside.v2");
    expect({ state: done.state, trace: done.trace }).toEqual(await fromTheStart());
  });

  it("called again for the same two runs, it returns the continued run and starts nothing", async () => {
    const again = await continueOnDBOS(graph, "static", { workflowId: "static.v2" });
    expect(again.workflowId).toBe("static.v2");
    const runs = await DBOS.listWorkflows({ workflowName: "tsg:draft" });
    expect(
      runs
        .filter((run) => run.workflowID.startsWith("static"))
        .map((run) => run.workflowID)
        .sort(),
    ).toEqual(["static", "static.v2"]);
  });

  it("bad calls are coded: its own id (DBOS_CANNOT_CONTINUE), an unknown run, a finished one", async () => {
    await expect(continueOnDBOS(graph, "inside", { workflowId: "inside" })).rejects.toMatchObject({ code: "DBOS_CANNOT_CONTINUE" });
    await expect(continueOnDBOS(graph, "no-such-run", { workflowId: "x.v2" })).rejects.toMatchObject({ code: "DBOS_RUN_NOT_FOUND" });
    const error = await continueOnDBOS(graph, "static.v2", { workflowId: "static.v2.again" }).catch((e: unknown) => e); // done
    expect(error).toBeInstanceOf(DBOSRunError);
    expect(error).toMatchObject({ code: "DBOS_NOT_INTERRUPTED" });
  });
});

describe("version 3, which removed the node a run paused before and maps nothing there", () => {
  it("refuses it with UNMAPPED_RESUME_POINT, listing the point; the old run is left as it was", async () => {
    const events = async () => {
      const latest = await DBOS.getEvent<number>("refused", LATEST_EVENT, { timeoutSeconds: 0 });
      const { status, applicationVersion } = (await DBOS.getWorkflowStatus("refused")) ?? {};
      return { latest, stop: await DBOS.getEvent("refused", pauseEvent(latest ?? 0), { timeoutSeconds: 0 }), status, applicationVersion };
    };
    const before = await events();
    expect(before).toMatchObject({ latest: 1, status: expect.stringMatching(/^(PENDING|ENQUEUED)$/), applicationVersion: "v1" });
    const refusal = await worker("v3", "refused");
    expect(refusal).toMatchObject({ code: "UNMAPPED_RESUME_POINT" });
    expect(refusal.message).toContain('continueOnDBOS: checkpoint "stop 1" of thread "refused" (version 1) cannot continue on version 3');
    expect(refusal.message).toContain('the next task, "release" (before:release)');
    expect(await DBOS.getWorkflowStatus("refused.v3")).toBeNull();
    expect(await events()).toEqual(before);
    // Version 2 still continues it.
    expect((await continueOnDBOS(graph, "refused", { workflowId: "refused.v2" })).status).toBe("interrupted");
  }, 120_000);

  it("a run version 3 can place (paused inside ask) continues there", async () => {
    expect(await worker("v3", "refused-inside")).toEqual({ status: "interrupted" });
    expect(await DBOS.getWorkflowStatus("refused-inside")).toMatchObject({ status: "CANCELLED" });
  }, 120_000);
});
