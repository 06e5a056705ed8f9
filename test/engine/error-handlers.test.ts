/**
 * Error handlers (`addNode(name, fn, { errorHandler })`, `compile({ errorHandler })`, LangGraph.js
 * 1.7.3's `errorHandler`) on the mini engine: invoke, stream and threads. The rule is the kernel's
 * (`handlesFailure`, `handledSuccessors`: test/engine/kernel.test.ts has its row); the graphs are
 * test/helpers/handler-graphs.ts, which test/langgraph/error-handlers.test.ts runs on LangGraph.js too.
 */
import { describe, expect, it } from "vitest";
import { append, Command, END, interrupt, START, StateGraph, type NodeErrorJson } from "../../src/index.js";
import { MemoryCheckpointer } from "../../src/persistence/index.js";
import { defaultHandler, handledBesideSibling, handledToRecovery, type LogState } from "../helpers/handler-graphs.js";
import { storesUnderTest } from "../persistence/_helpers.js";

const step = (name: string) => (): Partial<LogState> => ({ log: [name] });
const rejects = async (): Promise<Partial<LogState>> => {
  throw new Error("boom");
};

describe("an error handler on invoke and stream", () => {
  it("answers for the failed node: its update merges in the node's place, and the node's own edge does not apply", async () => {
    const result = await handledBesideSibling().invoke({ log: [] });
    expect(result.state.log).toEqual(["handled a: boom", "c"]);
    expect(result.trace).toEqual(["a", "c"]);
  });

  it("goes where its Command says, within the node's ends", async () => {
    const result = await handledToRecovery().invoke({ log: [] });
    expect(result.state.log).toEqual(["h(0)", "r"]);
    expect(result.trace).toEqual(["a", "r"]);
  });

  it("compile({ errorHandler }) answers for every node that declares none; a node's own handler wins", async () => {
    expect((await defaultHandler().invoke({ log: [] })).state.log).toEqual(["d:a", "d:b"]);
    const own = new StateGraph<LogState>({ reducers: { log: append } })
      .addNode("a", rejects, { errorHandler: async () => ({ log: ["own"] }) })
      .addEdge(START, "a")
      .addEdge("a", END)
      .compile({ errorHandler: () => ({ log: ["default"] }) });
    expect((await own.invoke({ log: [] })).state.log).toEqual(["own"]);
  });

  it("runs only after the node's retries are exhausted, and is told what the node threw", async () => {
    let attempts = 0;
    const seen: unknown[] = [];
    const graph = new StateGraph<LogState>({ reducers: { log: append } })
      .addNode(
        "a",
        () => {
          attempts += 1;
          throw new RangeError(`try ${attempts}`);
        },
        {
          retry: { maxAttempts: 3, initialInterval: 1, jitter: false },
          errorHandler: (_s, failure) => {
            seen.push(failure);
            return { log: ["recovered"] };
          },
        },
      )
      .addEdge(START, "a")
      .addEdge("a", END)
      .compile();
    expect((await graph.invoke({ log: [] })).state.log).toEqual(["recovered"]);
    expect(attempts).toBe(3);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ node: "a", error: expect.objectContaining({ name: "RangeError", message: "try 3" }) });
  });

  it("is told of a timeout as the run's failure, coded NODE_TIMEOUT", async () => {
    let told: unknown;
    const graph = new StateGraph<LogState>({ reducers: { log: append } })
      .addNode("slow", () => new Promise<Partial<LogState>>(() => {}), {
        timeout: 5,
        errorHandler: (_s, { error }) => {
          told = error;
          return { log: ["gave up"] };
        },
      })
      .addEdge(START, "slow")
      .addEdge("slow", END)
      .compile();
    expect((await graph.invoke({ log: [] })).state.log).toEqual(["gave up"]);
    expect(told).toMatchObject({ code: "NODE_TIMEOUT" });
  });

  it("a handler that throws fails the run with ERROR_HANDLER_FAILED naming the node; a bad goto is UNDECLARED_GOTO", async () => {
    const throwing = new StateGraph<LogState>({ reducers: { log: append } })
      .addNode("a", rejects, {
        errorHandler: () => {
          throw new Error("worse");
        },
      })
      .addEdge(START, "a")
      .addEdge("a", END)
      .compile();
    const failure = await throwing.invoke({ log: [] }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ name: "GraphExecutionError", code: "ERROR_HANDLER_FAILED", node: "a" });
    expect((failure as Error).message).toMatch(/^invoke: .*error handler of node "a" threw: worse/);
    expect((failure as Error).cause).toMatchObject({ message: "worse" });

    const straying = new StateGraph<LogState>({ reducers: { log: append } })
      .addNode("a", step("x"))
      .addNode("b", rejects, { errorHandler: () => new Command({ goto: "a" as never }) })
      .addEdge(START, ["a", "b"])
      .addEdge("b", END)
      .addEdge("a", END)
      .compile();
    await expect(straying.invoke({ log: [] })).rejects.toMatchObject({ code: "UNDECLARED_GOTO", node: "b" });
  });

  it("stream's updates show the handler's update under the node's name", async () => {
    const chunks: unknown[] = [];
    for await (const chunk of handledBesideSibling().stream({ log: [] }, { streamMode: "updates" }))
      chunks.push({ node: chunk.node, update: chunk.update });
    expect(chunks).toEqual([
      { node: "a", update: { log: ["handled a: boom"] } },
      { node: "c", update: { log: ["c"] } },
    ]);
  });

  it("a node that returns the reserved field __handled__ is RESERVED_FIELD", async () => {
    const graph = new StateGraph<Record<string, unknown>>()
      .addNode("a", () => ({ __handled__: true }))
      .addEdge(START, "a")
      .addEdge("a", END)
      .compile();
    await expect(graph.invoke({})).rejects.toMatchObject({ code: "RESERVED_FIELD" });
  });

  it("is not asked for an interrupt: outside a thread that stays INTERRUPT_OUTSIDE_THREAD", async () => {
    let asked = false;
    const graph = new StateGraph<LogState>({ reducers: { log: append } })
      .addNode("a", () => ({ log: [String(interrupt("ok?"))] }), {
        errorHandler: () => {
          asked = true;
          return {};
        },
      })
      .addEdge(START, "a")
      .addEdge("a", END)
      .compile();
    await expect(graph.invoke({ log: [] })).rejects.toMatchObject({ code: "INTERRUPT_OUTSIDE_THREAD" });
    expect(asked).toBe(false);
  });
});

describe.each(storesUnderTest("error-handlers.sqlite"))("an error handler on a thread (%s)", (_store, open) => {
  it("its update is committed and checkpointed like a node's, and it reads the error as JSON", async () => {
    const { checkpointer, close } = open();
    try {
      const told: unknown[] = [];
      const graph = new StateGraph<LogState>({ reducers: { log: append } })
        .addNode(
          "a",
          () => {
            throw new TypeError("bad");
          },
          {
            errorHandler: (_s, { error }) => {
              told.push(error);
              return { log: ["handled"] };
            },
          },
        )
        .addNode("c", step("c"))
        .addEdge(START, ["a", "c"])
        .addEdge("a", END)
        .addEdge("c", END)
        .compile({ checkpointer });
      const result = await graph.invoke({ log: [] }, { threadId: "t" });
      expect(result.state.log).toEqual(["handled", "c"]);
      const expected: NodeErrorJson = { node: "a", code: "NODE_FAILED", name: "TypeError", message: "bad" };
      expect(told).toEqual([expected]);
      expect((await graph.getState("t"))?.state.log).toEqual(["handled", "c"]);
      const history = await graph.getStateHistory("t");
      expect(history.map((checkpoint) => checkpoint.state.log)).toContainEqual(["handled", "c"]);
    } finally {
      await close();
    }
  });

  it("a handled task's update is kept while a sibling pauses; the resume does not run the node again and routes by the handler", async () => {
    const { checkpointer, close } = open();
    try {
      let failures = 0;
      const graph = new StateGraph<LogState>({ reducers: { log: append } })
        .addNode(
          "a",
          () => {
            failures += 1;
            throw new Error("boom");
          },
          { ends: ["r"], errorHandler: () => new Command({ update: { log: ["h"] }, goto: "r" }) },
        )
        .addNode("ask", () => ({ log: [String(interrupt("ok?"))] }))
        .addNode("b", step("b"))
        .addNode("r", step("r"))
        .addEdge(START, ["a", "ask"])
        .addEdge("a", "b")
        .addEdge("ask", END)
        .addEdge("b", END)
        .addEdge("r", END)
        .compile({ checkpointer });
      const paused = await graph.invoke({ log: [] }, { threadId: "p" });
      expect(paused.status).toBe("interrupted");
      const done = await graph.invoke(new Command({ resume: "yes" }), { threadId: "p" });
      expect(done.state.log).toEqual(["h", "yes", "r"]);
      expect(done.trace).toEqual(["a", "ask", "r"]);
      expect(failures).toBe(1);
    } finally {
      await close();
    }
  });
});

describe("an error handler's declaration", () => {
  it("an errorHandler that is not a function is an INVALID_POLICY problem of compile()", () => {
    const builder = new StateGraph<LogState>({ reducers: { log: append } })
      .addNode("a", step("a"), { errorHandler: "retry" as never })
      .addEdge(START, "a")
      .addEdge("a", END);
    expect(() => builder.compile()).toThrow(/errorHandler must be a function/);
    expect(() => builder.compile({ errorHandler: 1 as never })).toThrow(/compile\(\)'s defaults: errorHandler must be a function/);
  });

  it("a thread with a MemoryCheckpointer keeps the handled write and nothing of the failure", async () => {
    const graph = handledBesideSibling({ checkpointer: new MemoryCheckpointer() });
    await graph.invoke({ log: [] }, { threadId: "m" });
    const history = await graph.getStateHistory("m");
    expect(history.flatMap((checkpoint) => checkpoint.tasks.filter((task) => "error" in task))).toEqual([]);
  });
});
