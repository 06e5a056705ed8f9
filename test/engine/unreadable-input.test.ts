/**
 * A Proxy that throws when read (a revoked one, or one whose `getPrototypeOf` trap throws), handed in
 * as the input or inside it, is the caller's fault: every entry point refuses it with `INVALID_INPUT`
 * naming where, never a raw `Error` or `TypeError` (issue 37 §1).
 */
import { describe, expect, it } from "vitest";
import { Command, GraphExecutionError, stateGraph } from "../../src/index.js";
import { MemoryCheckpointer } from "../../src/persistence/index.js";

interface S {
  a?: unknown;
  n?: number;
}

const graph = stateGraph<S>()({})
  .addNode("x", () => ({ n: 1 }))
  .addEdge("__start__", "x")
  .addEdge("x", "__end__")
  .compile();

const hostile: readonly (readonly [string, () => object])[] = [
  [
    "a Proxy whose getPrototypeOf trap throws",
    () =>
      new Proxy(
        {},
        {
          getPrototypeOf: () => {
            throw new Error("trap!");
          },
        },
      ),
  ],
  [
    "a revoked Proxy",
    () => {
      const { proxy, revoke } = Proxy.revocable({}, {});
      revoke();
      return proxy;
    },
  ],
];

/** What `run` rejects with (or its result, which then fails the assertions). */
const failure = (run: () => Promise<unknown>): Promise<unknown> => run().catch((error: unknown) => error);

function drain(stream: AsyncIterable<unknown>): Promise<void> {
  return (async () => {
    for await (const _ of stream);
  })();
}

async function pausedThread(checkpointer: MemoryCheckpointer, threadId: string): Promise<void> {
  await graph.invoke({ n: 0 }, { threadId, checkpointer });
}

describe.each(hostile)("%s", (_label, make) => {
  const cases: readonly (readonly [string, string, (checkpointer: MemoryCheckpointer) => Promise<unknown>])[] = [
    ["invoke, as the input", "input", () => graph.invoke(make() as S)],
    ["invoke, inside the input", "input.a[0].b", () => graph.invoke({ a: [{ b: make() }] })],
    ["stream, as the input", "input", () => drain(graph.stream(make() as S))],
    ["stream, inside the input", "input.a", () => drain(graph.stream({ a: make() }))],
    ["a thread run, as the input", "input", (checkpointer) => graph.invoke(make() as S, { threadId: "t", checkpointer })],
    ["a thread run, inside the input", "input.a", (checkpointer) => graph.invoke({ a: make() }, { threadId: "t", checkpointer })],
    [
      "updateState, as the update",
      "update",
      async (checkpointer) => {
        await pausedThread(checkpointer, "u");
        return graph.updateState("u", make() as S, { checkpointer });
      },
    ],
    [
      "updateState, inside the update",
      "update.a",
      async (checkpointer) => {
        await pausedThread(checkpointer, "u");
        return graph.updateState("u", { a: make() }, { checkpointer });
      },
    ],
    [
      "a Command's update",
      "update",
      async (checkpointer) => {
        await pausedThread(checkpointer, "c");
        return graph.invoke(new Command({ update: make() as S }), { threadId: "c", checkpointer });
      },
    ],
    [
      "a resume answer",
      "resume.answer",
      async (checkpointer) => {
        await pausedThread(checkpointer, "r");
        return graph.invoke(new Command({ resume: { answer: make() } }), { threadId: "r", checkpointer });
      },
    ],
  ];

  it.each(cases)("%s: INVALID_INPUT naming %s", async (_where, path, run) => {
    const error = await failure(() => run(new MemoryCheckpointer()));
    expect(error).toBeInstanceOf(GraphExecutionError);
    expect(error).toMatchObject({ code: "INVALID_INPUT", node: "__start__" });
    expect((error as Error).message).toContain(`${path} cannot be inspected`);
  });
});
