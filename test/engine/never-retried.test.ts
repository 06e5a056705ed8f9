/**
 * An interrupt is never a failure, and a coded usage error is never transient: neither is retried, on
 * any engine, whatever `retryOn` says. Ported from LangGraph.js 1.7.3's
 * libs/langgraph/src/tests/pregel.test.ts, "should handle dynamic interrupt" ("interrupts aren't
 * retried": the node runs once under a retry policy when no checkpointer lets it pause).
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { MemorySaver } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineInterrupt, END, INTERRUPT_ERROR_CODES, interrupt, InterruptError, START, StateGraph } from "../../src/index.js";
import { StepFailure } from "../../src/engine/step.js";
import { NEVER_RETRIED_CODES, retryDecision } from "../../src/engine/kernel/retry.js";
import { runOnLangGraph } from "../../src/langgraph/index.js";
import { MemoryCheckpointer } from "../../src/persistence/index.js";
import { runOnXState } from "../../src/xstate/index.js";

interface S {
  my_key: string;
  market: string;
}
const retry = { maxAttempts: 3, initialInterval: 1, jitter: false, retryOn: () => true };

/** START → tool_two → END; tool_two asks (for market DE) under a retry policy that retries anything. */
function toolTwo(runs: { count: number }) {
  return new StateGraph<S>({ reducers: { my_key: (a: string, b: string) => a + b }, fields: ["my_key", "market"] })
    .addNode(
      "tool_two",
      (s: S) => {
        runs.count += 1;
        return { my_key: s.market === "DE" ? interrupt<string>("Just because...") : " all good" };
      },
      { retry },
    )
    .addEdge(START, "tool_two")
    .addEdge("tool_two", END)
    .compile();
}

describe("never retried: interrupts and coded usage errors", () => {
  it.each([
    // The engines that run a node through the engine's Run report the InterruptError itself; the
    // LangGraph runner reports it as the cause of the node's failure (docs/langgraph.md).
    [
      "the mini engine",
      (graph: ReturnType<typeof toolTwo>, input: S) => graph.invoke(input),
      { name: "InterruptError", code: "INTERRUPT_OUTSIDE_THREAD" },
    ],
    [
      "XState",
      (graph: ReturnType<typeof toolTwo>, input: S) => runOnXState(graph, input),
      { name: "InterruptError", code: "INTERRUPT_OUTSIDE_THREAD" },
    ],
    [
      "LangGraph.js",
      (graph: ReturnType<typeof toolTwo>, input: S) => runOnLangGraph(graph, input),
      { code: "NODE_FAILED", cause: { code: "INTERRUPT_OUTSIDE_THREAD" } },
    ],
  ])("interrupt() without a thread fails once, not once per attempt, on %s", async (_engine, run, expected) => {
    const runs = { count: 0 };
    const graph = toolTwo(runs);
    const error = await run(graph, { my_key: "value", market: "DE" }).catch((e: unknown) => e);
    expect(error).toMatchObject(expected);
    expect(runs.count).toBe(1);
    expect((await run(graph, { my_key: "value", market: "US" })).state.my_key).toBe("value all good");
  });

  it("a resume its schema refuses (INVALID_RESUME) runs the node once, on a thread of both engines", async () => {
    const approval = defineInterrupt<string, boolean>("approval", { schema: z.boolean() });
    const runs = { count: 0 };
    const graph = new StateGraph<S>({ fields: ["my_key", "market"] })
      .addNode("ask", () => ((runs.count += 1), { my_key: String(approval("ok?")) }), { retry })
      .addEdge(START, "ask")
      .addEdge("ask", END)
      .compile();
    const checkpointer = new MemoryCheckpointer();
    const saver = new MemorySaver();
    const input = { my_key: "", market: "DE" };
    await graph.invoke(input, { threadId: "t", checkpointer });
    await runOnLangGraph(graph, input, { threadId: "t", checkpointer: saver });
    runs.count = 0;
    const mini = await graph.invoke(approval.resume("yes" as unknown as boolean), { threadId: "t", checkpointer }).catch((e: unknown) => e);
    expect(mini).toBeInstanceOf(InterruptError);
    expect(mini).toMatchObject({ code: "INVALID_RESUME" });
    expect(runs.count).toBe(1);
    runs.count = 0;
    const lang = await runOnLangGraph(graph, approval.resume("yes" as unknown as boolean), { threadId: "t", checkpointer: saver }).catch(
      (e: unknown) => e,
    );
    expect(lang).toMatchObject({ code: "INVALID_RESUME" });
    expect(runs.count).toBe(1);
  });

  it("the kernel asks no retryOn for a coded usage error, a child's included", () => {
    const policy = { maxAttempts: 3, initialInterval: 1, backoffFactor: 2, maxInterval: 10, jitter: false, retryOn: () => true };
    const thrown = (cause: unknown) => new StepFailure("NODE_FAILED", "inside", { cause });
    for (const code of ["ABORTED", "INVALID_UPDATE", "STEP_LIMIT"] as const) {
      expect(retryDecision(policy, 1, new StepFailure(code, "run's own"), Math.random)).toEqual({ retry: false });
    }
    for (const code of NEVER_RETRIED_CODES) {
      expect(retryDecision(policy, 1, thrown(Object.assign(new Error("child's"), { code })), Math.random)).toEqual({ retry: false });
    }
    // Every InterruptError's code is among them (the kernel keeps its own copy: it imports no interrupt frame).
    const never: readonly string[] = NEVER_RETRIED_CODES;
    expect(INTERRUPT_ERROR_CODES.filter((code) => !never.includes(code))).toEqual([]);
    expect(retryDecision(policy, 1, thrown(new Error("flaky")), Math.random)).toEqual({ retry: true, delay: 1 });
  });

  it("docs/engine.md lists exactly the codes never retried", () => {
    const doc = readFileSync(resolve(import.meta.dirname, "../../docs/engine.md"), "utf8");
    const start = doc.indexOf("\nNever retried");
    const paragraph = doc.slice(doc.indexOf(":", start), doc.indexOf("\n\n", start));
    expect([...paragraph.matchAll(/`([A-Z_]+)`/g)].map((m) => m[1]).sort()).toEqual([...NEVER_RETRIED_CODES].sort());
  });
});
