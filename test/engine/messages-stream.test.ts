/**
 * `streamMode: "messages"`: the text deltas nodes write as `MessageDelta`s, yielded as they are written;
 * the committed update and the other modes are unchanged.
 */
import { describe, expect, it } from "vitest";
import { END, InvalidOptionError, MessageDelta, START, StateGraph, type StreamChunk } from "../../src/index.js";

interface S {
  answer: string;
}

/** START → model → END: `model` writes its answer token by token, and a custom progress event. */
function tokenGraph(tokens: readonly string[]) {
  return new StateGraph<S>()
    .addNode("model", async (_s, { writer }) => {
      writer({ progress: "started" });
      for (const token of tokens) {
        await Promise.resolve();
        writer(new MessageDelta("m1", token));
      }
      return { answer: tokens.join("") };
    })
    .addEdge(START, "model")
    .addEdge("model", END)
    .compile();
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

describe('streamMode "messages"', () => {
  it("yields each delta with its node and message id, in order", async () => {
    const deltas = await collect(tokenGraph(["Hel", "lo", "!"]).stream({ answer: "" }, { streamMode: "messages" }));
    expect(deltas).toEqual([
      { node: "model", delta: "Hel", messageId: "m1" },
      { node: "model", delta: "lo", messageId: "m1" },
      { node: "model", delta: "!", messageId: "m1" },
    ]);
  });

  it("keeps deltas out of the custom mode, and custom events out of the messages mode", async () => {
    const chunks = await collect(tokenGraph(["a", "b"]).stream({ answer: "" }, { streamMode: ["custom", "messages", "updates"] }));
    expect(chunks).toEqual([
      ["custom", { node: "model", event: { progress: "started" } }],
      ["messages", { node: "model", delta: "a", messageId: "m1" }],
      ["messages", { node: "model", delta: "b", messageId: "m1" }],
      ["updates", { node: "model", update: { answer: "ab" }, state: { answer: "ab" } }],
    ] satisfies StreamChunk<S>[]);
    const custom = await collect(tokenGraph(["a"]).stream({ answer: "" }, { streamMode: "custom" }));
    expect(custom).toEqual([{ node: "model", event: { progress: "started" } }]);
  });

  it("commits the whole message: invoke's result is the same as with streaming", async () => {
    const invoked = await tokenGraph(["x", "y"]).invoke({ answer: "" });
    const streamed = await collect(tokenGraph(["x", "y"]).stream({ answer: "" }, { streamMode: ["messages", "values"] }));
    expect(invoked.state).toEqual({ answer: "xy" });
    expect(streamed.at(-1)).toEqual(["values", { superstep: 1, nodes: ["model"], state: { answer: "xy" } }]);
  });

  it("names messages among the modes when one is unknown", async () => {
    const bad = tokenGraph(["x"]).stream({ answer: "" }, { streamMode: "tokens" as never });
    await expect(collect(bad)).rejects.toThrow(InvalidOptionError);
    await expect(collect(tokenGraph(["x"]).stream({ answer: "" }, { streamMode: "tokens" as never }))).rejects.toThrow(
      /"custom", "messages"/,
    );
  });
});
