/**
 * The instrumentation hooks (`invoke(input, { observer })`): what a run tells its observer, in what
 * order, on the mini engine. A recording observer writes one line per hook, so each test reads the
 * exact sequence. The OpenTelemetry observer built on these hooks is tested in test/otel.
 */
import { describe, expect, it } from "vitest";
import {
  append,
  END,
  GraphExecutionError,
  InvalidOptionError,
  START,
  StateGraph,
  subgraph,
  type NodeContext,
  type RunObservation,
  type RunObserver,
} from "../../src/index.js";
import { MemoryCheckpointer } from "../../src/persistence/index.js";

interface S {
  n: number;
  log: string[];
}

/** An observer that writes each hook as a line; a subgraph's run writes with its parent node as prefix. */
function recorder(): { observer: RunObserver; lines: string[] } {
  const lines: string[] = [];
  const observer: RunObserver = {
    run: (start) => {
      const prefix = start.parent === undefined ? "" : `${start.parent.node}> `;
      lines.push(
        `${prefix}run ${start.engine} ${start.api}${start.threadId === undefined ? "" : ` thread ${start.threadId}`}${start.resumed ? " resumed" : ""}`,
      );
      const observation: RunObservation = {
        superstepStart: (superstep, nodes) => lines.push(`${prefix}superstep ${superstep} [${nodes.join(", ")}]`),
        superstepEnd: (superstep, error) => lines.push(`${prefix}superstep ${superstep} ${error === undefined ? "ok" : "failed"}`),
        attempt: <T>(context: NodeContext, attempt: () => T | Promise<T>) => {
          lines.push(`${prefix}attempt ${context.node} #${context.attempt}`);
          return attempt();
        },
        retry: (retry) => lines.push(`${prefix}retry ${retry.node} after #${retry.attempt}`),
        cacheHit: (context) => lines.push(`${prefix}cache hit ${context.node}`),
        route: (route) => lines.push(`${prefix}route ${route.from} -${route.key}-> ${route.to}`),
        interrupt: (interrupt) => lines.push(`${prefix}interrupt ${interrupt.when} ${interrupt.nodes.join(", ")}`),
        checkpoint: (checkpoint) => lines.push(`${prefix}checkpoint ${checkpoint.step} ${checkpoint.source}`),
        runEnd: (end) => lines.push(`${prefix}end ${end.status} after ${end.supersteps}`),
      };
      return observation;
    },
  };
  return { observer, lines };
}

/** START → inc → (again: inc | done: END), stopping at n = 2. */
function loop() {
  return new StateGraph<S>({ reducers: { log: append } })
    .addNode("inc", (s) => ({ n: s.n + 1, log: [`inc ${s.n}`] }))
    .addEdge(START, "inc")
    .addConditionalEdges("inc", (s) => (s.n >= 2 ? "done" : "again"), { again: "inc", done: END })
    .compile();
}

describe("the run's observer", () => {
  it("hears the run, each superstep, each attempt and each route, in order, and ends once", async () => {
    const { observer, lines } = recorder();
    const result = await loop().invoke({ n: 0, log: [] }, { observer });
    expect(result.state.n).toBe(2);
    expect(lines).toEqual([
      "run mini invoke",
      "superstep 1 [inc]",
      "attempt inc #1",
      "route inc -again-> inc",
      "superstep 1 ok",
      "superstep 2 [inc]",
      "attempt inc #1",
      "route inc -done-> __end__",
      "superstep 2 ok",
      "end done after 2",
    ]);
  });

  it("changes nothing of the run's result", async () => {
    const { observer } = recorder();
    const plain = await loop().invoke({ n: 0, log: [] });
    const observed = await loop().invoke({ n: 0, log: [] }, { observer });
    expect({ ...observed, steps: observed.steps }).toEqual({ ...plain, steps: plain.steps });
  });

  it("ends a failed run with the run's error, after the superstep that failed", async () => {
    const { observer, lines } = recorder();
    let seen: unknown;
    const failing = new StateGraph<S>({ reducers: { log: append } })
      .addNode("boom", () => {
        throw new Error("no");
      })
      .addEdge(START, "boom")
      .addEdge("boom", END)
      .compile();
    const withError: RunObserver = {
      run: (start) => {
        const inner = observer.run(start) as RunObservation;
        return { ...inner, runEnd: (end) => ((seen = end.status === "failed" ? end.error : undefined), inner.runEnd?.(end)) };
      },
    };
    await expect(failing.invoke({ n: 0, log: [] }, { observer: withError })).rejects.toThrow(GraphExecutionError);
    expect(lines).toEqual(["run mini invoke", "superstep 1 [boom]", "attempt boom #1", "superstep 1 failed", "end failed after 0"]);
    expect(seen).toBeInstanceOf(GraphExecutionError);
  });

  it("hears retries between attempts, and cache hits instead of attempts", async () => {
    const { observer, lines } = recorder();
    const graph = new StateGraph<S>({ reducers: { log: append } })
      .addNode(
        "flaky",
        (_s, { attempt }) => {
          if (attempt === 1) throw new Error("first");
          return { n: 1 };
        },
        { retry: { maxAttempts: 2, initialInterval: 1, jitter: false }, cache: { key: (s) => String(s.n) } },
      )
      .addEdge(START, "flaky")
      .addEdge("flaky", END)
      .compile();
    await graph.invoke({ n: 0, log: [] }, { observer });
    await graph.invoke({ n: 0, log: [] }, { observer });
    expect(lines.filter((line) => !line.startsWith("run") && !line.startsWith("end") && !line.startsWith("superstep"))).toEqual([
      "attempt flaky #1",
      "retry flaky after #1",
      "attempt flaky #2",
      "cache hit flaky",
    ]);
  });

  it("observes a subgraph's run with the subgraph node as its parent", async () => {
    const { observer, lines } = recorder();
    const child = loop();
    const parent = new StateGraph<S>({ reducers: { log: append } })
      .addNode("child", subgraph(child))
      .addEdge(START, "child")
      .addEdge("child", END)
      .compile();
    await parent.invoke({ n: 1, log: [] }, { observer });
    expect(lines).toEqual([
      "run mini invoke",
      "superstep 1 [child]",
      "attempt child #1",
      "child> run mini invoke",
      "child> superstep 1 [inc]",
      "child> attempt inc #1",
      "child> route inc -done-> __end__",
      "child> superstep 1 ok",
      "child> end done after 1",
      "superstep 1 ok",
      "end done after 1",
    ]);
  });

  it("hears a thread's checkpoints and interrupts; a resumed run says so", async () => {
    const { observer, lines } = recorder();
    const checkpointer = new MemoryCheckpointer();
    const graph = new StateGraph<S>({ reducers: { log: append } })
      .addNode("a", () => ({ log: ["a"] }))
      .addNode("b", () => ({ log: ["b"] }))
      .addEdge(START, "a")
      .addEdge("a", "b")
      .addEdge("b", END)
      .compile({ interruptBefore: ["b"], checkpointer });
    await graph.invoke({ n: 0, log: [] }, { threadId: "t", observer });
    await graph.invoke(null, { threadId: "t", observer });
    expect(lines).toEqual([
      "run mini invoke thread t",
      "checkpoint 0 input",
      "superstep 1 [a]",
      "attempt a #1",
      "superstep 1 ok",
      "checkpoint 1 loop",
      "interrupt before b",
      "end interrupted after 1",
      "run mini invoke thread t resumed",
      "superstep 2 [b]",
      "attempt b #1",
      "superstep 2 ok",
      "checkpoint 2 loop",
      "end done after 2",
    ]);
  });

  it("ends a stream's run as abandoned when its consumer stops reading", async () => {
    const { observer, lines } = recorder();
    for await (const step of loop().stream({ n: 0, log: [] }, { observer })) {
      expect(step.node).toBe("inc");
      break;
    }
    expect(lines.at(-1)).toBe("end abandoned after 1");
    expect(lines.filter((line) => line.startsWith("end"))).toHaveLength(1);
  });

  it("refuses an observer without a run method, naming the API", async () => {
    const bad = { start: () => undefined } as unknown as RunObserver;
    await expect(loop().invoke({ n: 0, log: [] }, { observer: bad })).rejects.toThrow(InvalidOptionError);
    await expect(loop().invoke({ n: 0, log: [] }, { observer: bad })).rejects.toThrow(/^invoke: observer must be an object with a run/);
  });

  it("lets an observer skip a run by returning undefined", async () => {
    const result = await loop().invoke({ n: 0, log: [] }, { observer: { run: () => undefined } });
    expect(result.state.n).toBe(2);
  });
});
