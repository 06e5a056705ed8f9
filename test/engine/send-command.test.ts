/**
 * A `Command` as a `Send`'s input (as LangGraph.js allows): the node reads the Command and may return
 * it, so its goto is taken. On a thread, a pending Send with a Command input is stored in its plain form
 * (`{ __tsg_command__: { update?, goto? } }`, a goto's Send input encoded the same way) and made a
 * Command again on resume; it failed as NOT_SERIALIZABLE before.
 */
import { describe, expect, it } from "vitest";
import { Command, Send } from "../../src/index.js";
import { restoredTasks, storedTasks } from "../../src/engine/send-command.js";
import { sendSequences } from "../helpers/send-command-graphs.js";
import { storesUnderTest } from "../persistence/_helpers.js";

/** The items of LangGraph.js's "send sequences" test, in this library's merge order (declaration order). */
const EXPECTED = ["0", "1", "2|command", "2|command", "3.1", "2|3", "2|4", "3", "3"];

describe("a Command as a Send's input", () => {
  it("reaches the node as a Command; the node returns it and its goto is taken", async () => {
    expect((await sendSequences().invoke({ items: ["0"] })).state.items).toEqual(EXPECTED);
  });

  it("is stored in its plain form and restored as a Command, a goto's Send (and its Command input) included", () => {
    const inner = new Command({ update: { items: ["x"] } });
    const tasks = [
      { node: "2", sent: true, input: new Command({ update: { items: ["u"] }, goto: ["3", new Send("2", inner), new Send("2", 3)] }) },
      { node: "3", sent: false },
      { node: "2", sent: true, input: { items: [] } },
    ];
    const stored = storedTasks(tasks);
    expect(JSON.parse(JSON.stringify(stored))).toEqual([
      {
        node: "2",
        sent: true,
        input: {
          __tsg_command__: {
            update: { items: ["u"] },
            goto: ["3", { node: "2", input: { __tsg_command__: { update: { items: ["x"] } } } }, { node: "2", input: 3 }],
          },
        },
      },
      { node: "3", sent: false },
      { node: "2", sent: true, input: { items: [] } },
    ]);
    const restored = restoredTasks(JSON.parse(JSON.stringify(stored)) as typeof tasks);
    expect(restored[0]?.input).toBeInstanceOf(Command);
    expect(restored[0]?.input).toEqual(tasks[0]?.input);
    const first = restored[0]?.input;
    const goto = first instanceof Command ? (first.goto ?? []) : [];
    expect(goto[1]).toBeInstanceOf(Send);
    expect((goto[1] as Send).input).toBeInstanceOf(Command);
    // No Command input: the same list, no copy.
    expect(storedTasks(tasks.slice(1))).toEqual(tasks.slice(1));
    const plain = tasks.slice(1);
    expect(restoredTasks(plain)).toBe(plain);
  });
});

describe.each(storesUnderTest("send-command.sqlite"))("a Command as a Send's input on a thread (%s)", (_store, open) => {
  it("a pause before the Sends run stores them; the resume runs them on their Commands and takes the gotos", async () => {
    const { checkpointer, close } = open();
    try {
      const graph = sendSequences({ checkpointer, interruptBefore: ["3.1"] });
      const paused = await graph.invoke({ items: ["0"] }, { threadId: "t" });
      expect({ status: paused.status, next: paused.next }).toEqual({ status: "interrupted", next: ["2", "2", "3.1"] });
      const stored = await graph.getState("t");
      expect(stored?.tasks[0]).toEqual({ node: "2", sent: true, input: { __tsg_command__: { goto: [{ node: "2", input: 3 }] } } });
      const done = await graph.invoke(null, { threadId: "t" });
      expect({ status: done.status, items: done.state.items }).toEqual({ status: "done", items: EXPECTED });
    } finally {
      close();
    }
  });
});
