/**
 * A durable run validates its input with the state schema once (issue 39): `startOnDBOS` checks it
 * before DBOS records anything (a refused input starts no workflow), and the workflow's run starts from
 * the schema's output without checking it again. The schema below counts its `validate` calls.
 */
import { DBOS } from "@dbos-inc/dbos-sdk";
import { describe, expect, it } from "vitest";
import { registerOnDBOS, runOnDBOS } from "../../src/dbos/index.js";
import type { StandardSchemaV1 } from "../../src/engine/state-schema.js";
import { append, END, START, stateGraph } from "../../src/index.js";
import { launchDBOSForFile } from "./_launch.js";

interface Notes {
  topic: string;
  notes: string[];
}

const counter = { calls: 0, seen: -1 };
/** A hand-written Standard Schema of `Notes` whose output trims the topic, counting its calls. */
const schema: StandardSchemaV1<Notes, Notes> = {
  "~standard": {
    version: 1,
    vendor: "test",
    validate: (value) => {
      counter.calls += 1;
      const { topic, notes } = (value ?? {}) as Partial<Notes>;
      if (typeof topic !== "string" || !Array.isArray(notes))
        return { issues: [{ message: "expected { topic: string, notes: string[] }" }] };
      return { value: { topic: topic.trim(), notes } };
    },
  },
};
const graph = registerOnDBOS(
  stateGraph(schema)({ reducers: { notes: append } })
    .addNode("note", (s) => {
      counter.seen = counter.calls;
      return { notes: [`about ${s.topic}`] };
    })
    .addEdge(START, "note")
    .addEdge("note", END)
    .compile(),
  { name: "schema-calls" },
);

const nextId = launchDBOSForFile("dbos_schema_calls");

describe("a state schema on DBOS", () => {
  it("validates the input once before the node runs, and the run starts from the schema's output", async () => {
    counter.calls = 0;
    const { state } = await runOnDBOS(graph, { topic: "  tides ", notes: [] }, { workflowId: nextId("once") });
    expect(counter).toEqual({ calls: 2, seen: 1 }); // the input, then the one superstep's state
    expect(state).toEqual({ topic: "tides", notes: ["about tides"] });
  });

  it("refuses an input the schema refuses before DBOS records anything (INVALID_INPUT, no workflow)", async () => {
    const workflowId = nextId("refused");
    await expect(runOnDBOS(graph, { topic: 7 } as never, { workflowId })).rejects.toMatchObject({
      code: "INVALID_INPUT",
      node: "__start__",
    });
    expect(await DBOS.getWorkflowStatus(workflowId)).toBeNull();
  });
});
