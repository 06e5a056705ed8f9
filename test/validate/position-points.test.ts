/**
 * One definition of a resume point: the points a stored thread is at (`positionPoints`, what the run-time
 * migration lists when it refuses a thread) are points of its graph's spec (`resumePoints`, what
 * `assertResumable` and `tsg check --against` check). If the two drift apart (an id spelt another way, a
 * kind one side lacks), a thread could be refused at a point the check before the deploy never named.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { append, END, interrupt, START, StateGraph } from "../../src/index.js";
import { type Checkpoint, MemoryCheckpointer } from "../../src/persistence/index.js";
import type { GraphSpec } from "../../src/spec.js";
import { positionPoints, resumePoints } from "../../src/validate/resume-points.js";
import { spec as reviewV1Spec } from "../engine/threads/versions/fixtures/review-v1.spec.js";
import { unevenBranches } from "../helpers/defer-graphs.js";

const REVIEW_ROWS = join(import.meta.dirname, "../engine/threads/versions/fixtures/review-v1.rows.json");

/** Each checkpoint's points, as ids, after checking every one is a point of the spec. */
function pointsOf(spec: GraphSpec, checkpoints: readonly Checkpoint[]): string[][] {
  const known = new Set(resumePoints(spec).map((point) => point.id));
  return checkpoints.map((checkpoint) => {
    const ids = positionPoints(checkpoint, spec).map((point) => point.id);
    for (const id of ids) expect(known, `${id} (checkpoint ${checkpoint.id})`).toContain(id);
    return ids;
  });
}

describe("positionPoints: the resume points a stored thread is at", () => {
  it("names, for the review graph's version-1 threads, points of its spec: Sends, a subgraph's interrupt, a static pause", () => {
    const rows = JSON.parse(readFileSync(REVIEW_ROWS, "utf8")) as Record<string, Checkpoint[]>;
    const latest = Object.fromEntries(Object.entries(rows).map(([thread, history]) => [thread, pointsOf(reviewV1Spec, history)[0]]));
    expect(latest).toEqual({
      sends: ["send:write", "send:write"],
      subgraph: ["interrupt:review/ask"],
      static: ["before:publish"],
      failed: ["send:write", "send:write"],
    });
  });

  it("names a deferred node waiting, a join with arrivals and an in-node interrupt, each a point of the spec", async () => {
    const store = new MemoryCheckpointer();
    const deferred = unevenBranches(true, { interruptBefore: ["a2"] });
    await deferred.invoke({ log: [] }, { threadId: "deferred", checkpointer: store });
    expect(pointsOf(deferred.spec, await store.list("deferred"))[0]).toEqual(["before:a2", "before:reduce"]);

    const joined = new StateGraph<{ log: string[] }>({ reducers: { log: append } })
      .addNode("a", () => ({ log: ["a"] }))
      .addNode("b", () => ({ log: ["b"] }))
      .addNode("a2", () => ({ log: [interrupt<string>("a2?")] }))
      .addNode("both", () => ({ log: ["both"] }))
      .addEdge(START, ["a", "b"])
      .addEdge("a", "a2")
      .addEdge(["a2", "b"], "both")
      .addEdge("both", END)
      .compile();
    await joined.invoke({ log: [] }, { threadId: "join", checkpointer: store });
    const history = await store.list("join");
    expect(pointsOf(joined.spec, history)[0]).toEqual(["interrupt:a2", "join:both"]);
  });
});
