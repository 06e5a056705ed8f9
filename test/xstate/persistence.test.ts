/**
 * Step-by-step mode: one node per `step` event, so an actor can be persisted between nodes with
 * `getPersistedSnapshot()`, restored (here from JSON, by a machine built anew), and finish with the
 * output an uninterrupted run gives.
 */
import { createActor, toPromise, type Snapshot } from "xstate";
import { describe, expect, it } from "vitest";
import { buildReportGraph, initialReportState, type ReportState } from "../../src/examples/report/index.js";
import { toMachine, WAITING_TAG, type GraphMachine, type GraphMachineOutput } from "../../src/xstate/index.js";
import { counterGraph, counterInput } from "../helpers/graphs.js";

type ReportActor = ReturnType<typeof createActor<GraphMachine<ReportState>>>;

/** Sends `step` events until the actor is done, waiting for each node (some are async) to finish. */
async function finish(actor: ReportActor): Promise<GraphMachineOutput<ReportState>> {
  const done = toPromise(actor);
  const stepWhenWaiting = (snapshot: ReturnType<ReportActor["getSnapshot"]>) => {
    if (snapshot.hasTag(WAITING_TAG)) queueMicrotask(() => actor.send({ type: "step" }));
  };
  actor.subscribe(stepWhenWaiting);
  stepWhenWaiting(actor.getSnapshot());
  return done;
}

/** Resolves once the actor waits for a `step` (START's actor runs first, before the first wait). */
function untilWaiting(actor: ReportActor): Promise<void> {
  return new Promise<void>((resolve) => {
    const check = (s: ReturnType<ReportActor["getSnapshot"]>): boolean => s.hasTag(WAITING_TAG) || s.status !== "active";
    if (check(actor.getSnapshot())) return resolve();
    const subscription = actor.subscribe((s) => {
      if (!check(s)) return;
      subscription.unsubscribe();
      resolve();
    });
  });
}

/** Runs `count` nodes, then resolves once the actor waits for the next `step`. */
async function runNodes(actor: ReportActor, count: number): Promise<void> {
  await untilWaiting(actor);
  for (let i = 0; i < count; i++) {
    const waiting = new Promise<void>((resolve) => {
      const subscription = actor.subscribe((s) => {
        if (s.hasTag(WAITING_TAG) || s.status !== "active") {
          subscription.unsubscribe();
          resolve();
        }
      });
    });
    actor.send({ type: "step" });
    await waiting;
  }
}

const options = { draftStyle: "stubborn", maxRevisions: 2 } as const;
const input = { state: initialReportState({ language: "zh-CN" }), maxSteps: 30 };

describe("persisting a step-by-step run", () => {
  it("restores from JSON between any two nodes and finishes with the uninterrupted output", async () => {
    const uninterrupted = await toPromise(createActor(toMachine(buildReportGraph(options)), { input }).start());
    expect(uninterrupted.trace).toHaveLength(8);
    for (let cut = 0; cut < uninterrupted.trace.length; cut++) {
      const first = createActor(toMachine(buildReportGraph(options), { mode: "step" }), { input }).start();
      await runNodes(first, cut);
      expect(first.getSnapshot().context.trace).toEqual(uninterrupted.trace.slice(0, cut));
      const saved = JSON.stringify(first.getPersistedSnapshot());
      first.stop();

      // As after a restart: a new graph, a new machine, the snapshot read back from text.
      const restored = createActor(toMachine(buildReportGraph(options), { mode: "step" }), {
        input,
        snapshot: JSON.parse(saved) as Snapshot<unknown>,
      }).start();
      expect(await finish(restored), `cut after ${cut} nodes`).toEqual(uninterrupted);
    }
  });

  it("waits between nodes with no child actor running, so the snapshot holds only plain data", async () => {
    const actor = createActor(toMachine(buildReportGraph(options), { mode: "step" }), { input }).start();
    await runNodes(actor, 3);
    const snapshot = actor.getSnapshot();
    expect(snapshot.hasTag(WAITING_TAG)).toBe(true);
    expect(snapshot.value).toEqual({ revise_draft: "waiting" });
    const persisted = actor.getPersistedSnapshot() as unknown as { children: object; context: unknown };
    expect(persisted.children).toEqual({});
    expect(JSON.parse(JSON.stringify(persisted.context))).toEqual(persisted.context);
  });

  it("runs no node until the first step event (START's actor only chooses the first node)", async () => {
    let runs = 0;
    const graph = counterGraph(2);
    const counting = createActor(toMachine(graph, { mode: "step" }), { input: { state: counterInput() } }).start();
    counting.subscribe(() => (runs += 1));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(runs).toBe(1); // __start__ → inc.waiting
    expect(counting.getSnapshot().value).toEqual({ inc: "waiting" });
    expect(counting.getSnapshot().context.trace).toEqual([]);
  });
});
