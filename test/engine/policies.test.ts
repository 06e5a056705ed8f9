/**
 * Per-node policies: retry, timeout, cache. Time is faked (vitest's fake timers), so backoff waits and
 * timeouts are tested without real waits; the three-engine test uses 1 ms intervals.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  append,
  END,
  GraphExecutionError,
  GraphValidationError,
  MemoryCacheStore,
  START,
  StateGraph,
  type NodeContext,
  type NodePolicy,
} from "../../src/index.js";
import { retryDecision } from "../../src/engine/kernel/retry.js";
import { resolvePolicy } from "../../src/engine/policies.js";
import { StepFailure } from "../../src/engine/step.js";
import { runOnLangGraph } from "../../src/langgraph/index.js";
import { runOnXState } from "../../src/xstate/index.js";

interface S {
  city: string;
  log: string[];
}
const input = (): S => ({ city: "Oslo", log: [] });

/** START → work → END, `work` built by `node` with `policy`. */
function oneNode(
  node: (s: S, context: NodeContext) => unknown,
  policy?: NodePolicy<S>,
  compile: Parameters<StateGraph<S>["compile"]>[0] = {},
) {
  return new StateGraph<S>({ reducers: { log: append }, fields: ["city", "log"] })
    .addNode("work", node as (s: S) => Partial<S>, policy)
    .addEdge(START, "work")
    .addEdge("work", END)
    .compile(compile);
}

/** A node that fails on its first `failures` attempts, then succeeds; records each attempt it saw. */
function flaky(failures: number) {
  const attempts: number[] = [];
  const node = async (_s: S, { attempt }: NodeContext) => {
    attempts.push(attempt);
    if (attempt <= failures) throw new Error(`attempt ${attempt} failed`);
    return { log: [`ok on ${attempt}`] };
  };
  return { node, attempts };
}

async function settled<T>(promise: Promise<T>): Promise<T | unknown> {
  const outcome = promise.then(
    (value) => value,
    (error: unknown) => error,
  );
  await vi.runAllTimersAsync();
  return outcome;
}

describe("retry, timeout and cache on the mini engine", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("without a policy a node runs once", async () => {
    const { node, attempts } = flaky(1);
    const error = await settled(oneNode(node).invoke(input()));
    expect(error).toMatchObject({ code: "NODE_FAILED", attempts: [] });
    expect(attempts).toEqual([1]);
  });

  it("retries a failing node, each attempt counted in context.attempt, with exponential backoff", async () => {
    const { node, attempts } = flaky(2);
    const started = Date.now();
    const result = (await settled(oneNode(node, { retry: { maxAttempts: 3, initialInterval: 100, jitter: false } }).invoke(input()))) as {
      state: S;
    };
    expect(result.state.log).toEqual(["ok on 3"]);
    expect(attempts).toEqual([1, 2, 3]);
    expect(Date.now() - started).toBe(100 + 200);
  });

  it("the final error of an exhausted retry lists every attempt's error", async () => {
    const { node } = flaky(5);
    const error = (await settled(oneNode(node, { retry: { maxAttempts: 3, jitter: false } }).invoke(input()))) as GraphExecutionError;
    expect(error).toBeInstanceOf(GraphExecutionError);
    expect(error.code).toBe("NODE_FAILED");
    expect(error.attempts.map((e) => (e as Error).message)).toEqual(["attempt 1 failed", "attempt 2 failed", "attempt 3 failed"]);
    expect(error.message).toContain("attempt 3 of 3");
  });

  it("never retries the library's own validation errors, nor what retryOn refuses", async () => {
    let calls = 0;
    const invalid = oneNode(() => (calls++, "not an update"), { retry: { maxAttempts: 5, jitter: false } });
    expect(await settled(invalid.invoke(input()))).toMatchObject({ code: "INVALID_UPDATE" });
    expect(calls).toBe(1);
    const { node, attempts } = flaky(5);
    const refused = oneNode(node, { retry: { maxAttempts: 5, retryOn: (e) => !(e as Error).message.includes("1") } });
    expect(await settled(refused.invoke(input()))).toMatchObject({ code: "NODE_FAILED" });
    expect(attempts).toEqual([1]);
  });

  it("a timeout aborts the attempt's signal and fails with NODE_TIMEOUT naming the node and the limit, even if the node ignores it", async () => {
    let signal: AbortSignal | undefined;
    const stuck = oneNode((_s, context) => ((signal = context.signal), new Promise(() => undefined)), { timeout: 1000 });
    const error = (await settled(stuck.invoke(input()))) as GraphExecutionError;
    expect(error).toMatchObject({ code: "NODE_TIMEOUT", node: "work", trace: [] });
    expect(error.message).toContain("1000 ms");
    expect(signal?.aborted).toBe(true);
  });

  it("a timed-out attempt is retried; its late result is discarded", async () => {
    const late: string[] = [];
    const node = (_s: S, { attempt }: NodeContext) =>
      new Promise((resolve) =>
        setTimeout(() => (late.push(`attempt ${attempt}`), resolve({ log: [`from ${attempt}`] })), attempt === 1 ? 5000 : 10),
      );
    const result = (await settled(
      oneNode(node, { timeout: 100, retry: { maxAttempts: 2, initialInterval: 1, jitter: false } }).invoke(input()),
    )) as {
      state: S;
    };
    expect(result.state.log).toEqual(["from 2"]);
    expect(late).toContain("attempt 1"); // it did finish, later, and nothing of it was committed
  });

  it("a backoff wait ends when the run's signal aborts", async () => {
    const controller = new AbortController();
    const { node } = flaky(5);
    const run = oneNode(node, { retry: { maxAttempts: 5, initialInterval: 60_000, jitter: false } }).invoke(input(), {
      signal: controller.signal,
    });
    const outcome = run.then(
      () => "done",
      (error: unknown) => error,
    );
    await vi.advanceTimersByTimeAsync(10);
    controller.abort();
    expect(await outcome).toMatchObject({ code: "ABORTED", node: "work" });
  });

  it("compile({ retry, timeout }) sets defaults; a node's own policy wins", async () => {
    const { node, attempts } = flaky(1);
    const result = (await settled(oneNode(node, undefined, { retry: { maxAttempts: 2, jitter: false } }).invoke(input()))) as { state: S };
    expect(result.state.log).toEqual(["ok on 2"]);
    expect(attempts).toEqual([1, 2]);
    const own = flaky(1);
    const error = await settled(oneNode(own.node, { retry: { maxAttempts: 1 } }, { retry: { maxAttempts: 5 } }).invoke(input()));
    expect(error).toMatchObject({ code: "NODE_FAILED" });
    expect(own.attempts).toEqual([1]);
  });

  it("a cache hit skips the node and commits the cached update; keys carry the node and the spec hash", async () => {
    let calls = 0;
    const store = new MemoryCacheStore();
    const geocode = (s: S) => (calls++, { log: [`geocoded ${s.city}`] });
    const graph = oneNode(geocode, { cache: { key: (s) => s.city, ttl: 60_000 } }, { cacheStore: store });
    expect((await graph.invoke(input())).state.log).toEqual(["geocoded Oslo"]);
    expect((await graph.invoke(input())).state.log).toEqual(["geocoded Oslo"]);
    expect(calls).toBe(1);
    await graph.invoke({ city: "Bergen", log: [] });
    expect(calls).toBe(2);
    // A different graph on the same store never reads this one's entries.
    const other = new StateGraph<S>({ reducers: { log: append }, fields: ["city", "log"] })
      .addNode("work", geocode, { cache: { key: (s) => s.city } })
      .addNode("after", () => ({}))
      .addEdge(START, "work")
      .addEdge("work", "after")
      .addEdge("after", END)
      .compile({ cacheStore: store });
    await other.invoke(input());
    expect(calls).toBe(3);
    // An expired entry is not read.
    vi.advanceTimersByTime(60_001);
    await graph.invoke(input());
    expect(calls).toBe(4);
  });

  it("bad policies are a GraphValidationError listing every problem", () => {
    const policy = {
      timeout: 0,
      retry: { maxAttempts: 1.5, backoffFactor: 0.5, jitter: "yes", colour: 1 },
      cache: { ttl: -1 },
      extra: true,
    };
    let error: unknown;
    try {
      oneNode(() => ({}), policy as unknown as NodePolicy<S>, { timeout: Number.NaN });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(GraphValidationError);
    const problems = (error as GraphValidationError).problems;
    expect(problems.every((p) => p.code === "INVALID_POLICY")).toBe(true);
    const messages = problems.map((p) => p.message);
    for (const fragment of [
      "compile()'s defaults: timeout",
      '"extra"',
      "timeout must",
      "maxAttempts",
      "backoffFactor",
      "jitter",
      '"colour"',
      "cache.key",
      "cache.ttl",
    ]) {
      expect(
        messages.some((m) => m.includes(fragment)),
        `${fragment} in ${messages.join(" | ")}`,
      ).toBe(true);
    }
    expect(problems).toHaveLength(9);
  });
});

describe("the kernel's retry rule", () => {
  const retry = resolvePolicy(
    { retry: { maxAttempts: 5, initialInterval: 100, backoffFactor: 3, maxInterval: 500, jitter: false } },
    undefined,
  )?.retry;
  const failed = new StepFailure("NODE_FAILED", "boom", { cause: new Error("boom") });

  it("backs off exponentially up to maxInterval, and stops after the last attempt", () => {
    expect([1, 2, 3, 4, 5].map((attempt) => retryDecision(retry, attempt, failed, () => 0.5))).toEqual([
      { retry: true, delay: 100 },
      { retry: true, delay: 300 },
      { retry: true, delay: 500 },
      { retry: true, delay: 500 },
      { retry: false },
    ]);
  });

  it("jitter spreads a wait by ±50 %", () => {
    const jittered = resolvePolicy({ retry: { initialInterval: 100 } }, undefined)?.retry;
    expect(retryDecision(jittered, 1, failed, () => 0)).toEqual({ retry: true, delay: 50 });
    expect(retryDecision(jittered, 1, failed, () => 0.999)).toMatchObject({ retry: true });
  });

  it("never retries an abort or an invalid update", () => {
    expect(retryDecision(retry, 1, new StepFailure("ABORTED", "x"), Math.random)).toEqual({ retry: false });
    expect(retryDecision(retry, 1, new StepFailure("INVALID_UPDATE", "x"), Math.random)).toEqual({ retry: false });
  });
});

describe.each(["mini", "xstate", "langgraph"] as const)("policies on the %s engine", (engine) => {
  it("a node failing on its first k attempts gives the same state, trace and attempt count", async () => {
    for (const k of [0, 1, 2]) {
      const { node, attempts } = flaky(k);
      const graph = oneNode(node, { retry: { maxAttempts: 3, initialInterval: 1, jitter: false }, timeout: 1000 });
      const result =
        engine === "mini"
          ? await graph.invoke(input())
          : engine === "xstate"
            ? await runOnXState(graph, input())
            : await runOnLangGraph(graph, input());
      expect(result.state.log).toEqual([`ok on ${k + 1}`]);
      expect(result.trace).toEqual(["work"]);
      expect(attempts).toEqual(Array.from({ length: k + 1 }, (_, i) => i + 1));
    }
  });
});

describe("pending writes: a failed superstep keeps what succeeded", () => {
  it("the error carries the updates of the siblings that succeeded, in declaration order; nothing is committed", async () => {
    const graph = new StateGraph<S>({ reducers: { log: append }, fields: ["city", "log"] })
      .addNode("a", () => ({ log: ["a"] }))
      .addNode("b", async () => {
        throw new Error("b broke");
      })
      .addNode("c", () => ({ log: ["c"] }))
      .addEdge(START, ["a", "b", "c"])
      .addEdge(["a", "b", "c"], END)
      .compile();
    const error = (await graph.invoke(input()).catch((e: unknown) => e)) as GraphExecutionError;
    expect(error).toMatchObject({ code: "NODE_FAILED", node: "b", state: input(), trace: [] });
    expect(error.pendingWrites).toEqual([
      { node: "a", update: { log: ["a"] } },
      { node: "c", update: { log: ["c"] } },
    ]);
  });

  it("a sibling that settles after it was cancelled keeps no write", async () => {
    const graph = new StateGraph<S>({ reducers: { log: append }, fields: ["city", "log"] })
      .addNode("a", async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        return { log: ["late a"] };
      })
      .addNode("b", async () => {
        throw new Error("b broke");
      })
      .addEdge(START, ["a", "b"])
      .addEdge(["a", "b"], END)
      .compile();
    const error = (await graph.invoke(input()).catch((e: unknown) => e)) as GraphExecutionError;
    expect(error.node).toBe("b");
    expect(error.pendingWrites).toEqual([]);
  });
});
