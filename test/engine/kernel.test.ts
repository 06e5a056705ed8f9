/**
 * The run kernel, rule by rule: one row per rule listed in docs/engine.md "One superstep", each a
 * snapshot in and a decision out, with no node run (the graph's nodes throw if one ever is). A rule
 * the doc lists without a row here fails the last test.
 */
import { readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { executableOf } from "../../src/engine/compiled-graph.js";
import { boundedTasks, loopBoundStop, visitCounts } from "../../src/engine/kernel/bounds.js";
import { reportedFailure, superstepFailure } from "../../src/engine/kernel/failures.js";
import { resolveLimits } from "../../src/engine/kernel/limits.js";
import { childPauseRefusal, pauseAfter, pauseBefore, staticPause } from "../../src/engine/kernel/pauses.js";
import { admit, commit, superstepCeiling, verdict, type RunSnapshot } from "../../src/engine/kernel/superstep.js";
import { retryDecision } from "../../src/engine/kernel/retry.js";
import { advance, schedule } from "../../src/engine/kernel/advance.js";
import { deferTasks } from "../../src/engine/kernel/defer.js";
import { handledSuccessors, handlesFailure } from "../../src/engine/kernel/error-handlers.js";
import { NodePaused } from "../../src/engine/node-paused.js";
import { cancelPending, reroutes, updateSource } from "../../src/engine/kernel/updates.js";
import { writesKeptOnFailure, writesKeptOnPause } from "../../src/engine/kernel/writes.js";
import { next, settle } from "../../src/engine/kernel/transition.js";
import { StepFailure, type State, type Task } from "../../src/engine/step.js";
import { append, END, START, StateGraph } from "../../src/index.js";

interface Log {
  log: string[];
  n: number;
}

const never = (): Partial<Log> => {
  throw new Error("the kernel never runs a node");
};

/** START → [a, b]; [a, b] → c (a join); c routes "again" to a, "more" to d (or Sends to it), "done" to END. */
const graph = executableOf(
  new StateGraph<Log>({ reducers: { log: append } })
    .addNode("a", never)
    .addNode("b", never)
    .addNode("c", never)
    .addNode("d", never)
    .addEdge(START, ["a", "b"])
    .addEdge(["a", "b"], "c")
    .addConditionalEdges("c", (): "again" | "more" | "done" => "done", { again: "a", more: "d", done: END })
    .addEdge("d", END)
    .compile(),
);

const task = (node: string, sent = false): Task => ({ node, sent });

/** START → a → b, b routes "again" to a; a runs at most twice, then the run goes to "exit"; b at most once, with no exit. */
const bounded = executableOf(
  new StateGraph<Log>({ reducers: { log: append } })
    .addNode("a", never, { bound: { max: 2, exit: "exit" } })
    .addNode("b", never, { bound: { max: 1 } })
    .addNode("exit", never)
    .addEdge(START, "a")
    .addEdge("a", "b")
    .addConditionalEdges("b", (): "again" | "done" => "done", { again: "a", done: END })
    .addEdge("exit", END)
    .compile(),
);
/** The same graph with "d" deferred: it waits while another node has a plain task pending. */
const withDeferred = { ...graph, deferred: new Set(["d"]) };
const limits = resolveLimits({ maxSteps: 4, recursionLimit: 3 });
const settings = { interruptBefore: new Set(["c"]), interruptAfter: new Set(["a"]) };

function snapshot(over: Partial<RunSnapshot> = {}): RunSnapshot {
  return { state: { log: [], n: 0 }, tasks: [task("a"), task("b")], trace: [], routes: [], supersteps: 0, joins: [[]], ...over };
}

/** What a decision says, without the failure's stack: its kind, node, bound and code. */
function decided(decision: ReturnType<typeof admit>): unknown {
  if (decision.kind !== "stop") return decision;
  return { kind: "stop", node: decision.node, bound: decision.bound, code: decision.failure.code };
}

const aborted = AbortSignal.abort("stop");
const failedOnItsOwn = { failed: true, error: new Error("own"), cancelled: false };
const cancelled = { failed: true, error: new Error("cancelled"), cancelled: true };
const succeeded = { failed: false, cancelled: false };

/** Rule (as docs/engine.md names it), the decision, and what it must be. */
const rows: [string, () => unknown, unknown][] = [
  ["end", () => decided(admit(graph, snapshot({ tasks: [] }), limits, undefined)), { kind: "end" }],
  [
    "join left waiting",
    () => decided(admit(graph, snapshot({ tasks: [], joins: [["a"]] }), limits, undefined)),
    { kind: "stop", node: "c", bound: undefined, code: "JOIN_INCOMPLETE" },
  ],
  [
    "abort",
    () => decided(admit(graph, snapshot({ trace: ["x", "y", "z", "w"] }), limits, aborted)),
    { kind: "stop", node: "a", bound: undefined, code: "ABORTED" },
  ],
  [
    "maxSteps",
    () => decided(admit(graph, snapshot({ trace: ["a", "b", "c"] }), limits, undefined)),
    { kind: "stop", node: "b", bound: "maxSteps", code: "STEP_LIMIT" },
  ],
  [
    "recursionLimit",
    () => decided(admit(graph, snapshot({ tasks: [task("a")], trace: ["a"], supersteps: 3 }), limits, undefined)),
    { kind: "stop", node: "a", bound: "recursionLimit", code: "STEP_LIMIT" },
  ],
  [
    "pause before",
    () => [pauseBefore(settings, [task("c"), task("c", true)], false), pauseBefore(settings, [task("c")], true)],
    [{ when: "before", nodes: ["c"] }, undefined],
  ],
  ["failure reported", () => reportedFailure([cancelled, succeeded, failedOnItsOwn]), 2],
  [
    "failure order",
    () => {
      const routerFailed = { settled: succeeded, update: {}, routerFailure: { error: "router" } };
      const mergeFailed = { settled: succeeded, update: { n: 1 } };
      return [
        superstepFailure(graph, { log: [], n: 0 }, [task("a"), task("b")], [mergeFailed, mergeFailed])?.node,
        superstepFailure(graph, { log: [], n: 0 }, [task("a"), task("b")], [routerFailed, { settled: failedOnItsOwn, update: undefined }])
          ?.failure,
        superstepFailure(graph, { log: [], n: 0 }, [task("a"), task("b")], [routerFailed, { settled: succeeded, update: { n: 2 } }]),
      ];
    },
    ["b", failedOnItsOwn.error, { node: "a", failure: "router" }],
  ],
  [
    "writes kept after a failure",
    () =>
      writesKeptOnFailure(
        [task("a"), task("b"), task("d", true)],
        [succeeded, cancelled, failedOnItsOwn],
        [{ n: 1 }, { n: 2 }, {}],
        [1, 2, 3],
      ),
    [{ task: 1, node: "a", update: { n: 1 } }],
  ],
  [
    "in-node interrupts",
    () => writesKeptOnPause([task("a"), task("b")], [{ n: 1 }, {}], new Set([1])),
    [{ task: 0, node: "a", update: { n: 1 } }],
  ],
  [
    "commit",
    () => {
      const merged = commit(graph, { log: ["x"], n: 0 }, [task("a"), task("b")], [{ log: ["a"] }, { log: ["b"] }]);
      const conflict = commit(graph, { log: [], n: 0 }, [task("a"), task("b")], [{ n: 1 }, { n: 2 }]);
      return [merged.ok && merged.state, !conflict.ok && conflict.node, !conflict.ok && (conflict.failure as StepFailure).code];
    },
    [{ log: ["x", "a", "b"], n: 0 }, "b", "CONCURRENT_WRITE"],
  ],
  [
    "routes and joins",
    () => {
      const first = advance(graph, [[]], [{ source: "a", successors: undefined }]);
      const second = advance(graph, first.joins, [{ source: "b", successors: undefined }]);
      const routed = advance(
        graph,
        [[]],
        [{ source: "c", successors: { tasks: [task(END)], routes: [{ from: "c", key: "done", to: END }], list: false } }],
      );
      return [first.tasks, first.joins, second.tasks, second.joins, routed.tasks, routed.keys];
    },
    [[], [["a"]], [task("c")], [[]], [], ["done"]],
  ],
  [
    "Command goto",
    () => advance(graph, [[]], [{ source: "c", successors: { tasks: [task("a")], routes: [], list: false }, goto: [task("d")] }]).tasks,
    [task("a"), task("d")],
  ],
  [
    "several Commands",
    () => {
      const parts = (...updates: State[]): State => ({ __updates__: updates });
      const merged = commit(graph, { log: [], n: 0 }, [task("a")], [parts({ log: ["1"] }, { log: ["2"], n: 1 })]);
      const twice = commit(graph, { log: [], n: 0 }, [task("a")], [parts({ n: 1 }, { n: 2 })]);
      return [merged.ok && merged.state, !twice.ok && (twice.failure as StepFailure).code];
    },
    [{ log: ["1", "2"], n: 1 }, "CONCURRENT_WRITE"],
  ],
  [
    "declaration order",
    () => schedule(graph, [task("d", true), task("c"), task("a"), task("c"), task("d"), task(END)]),
    [task("a"), task("c"), task("d"), task("d", true)],
  ],
  [
    "pause after",
    () => [pauseAfter(settings, ["a", "b"], [task("c")]), pauseAfter(settings, ["a"], [])],
    [{ when: "after", nodes: ["a"] }, undefined],
  ],
  [
    "static pause at a boundary",
    () => [
      staticPause(settings, ["a"], [task("c")], false),
      staticPause(settings, ["b"], [task("c")], false),
      staticPause(settings, [], [task("c")], false),
      staticPause(settings, ["a"], [task("c")], true),
      staticPause(settings, ["a"], [], false),
    ],
    [{ when: "after", nodes: ["a"] }, { when: "before", nodes: ["c"] }, { when: "before", nodes: ["c"] }, undefined, undefined],
  ],
  [
    "what follows",
    () => [
      verdict(graph, snapshot({ tasks: [] }), limits, undefined),
      verdict(graph, snapshot({ trace: ["a", "b", "c"] }), limits, undefined),
      verdict(graph, snapshot({ trace: ["a", "b", "c"] }), limits, aborted),
      verdict(graph, snapshot(), limits, undefined),
    ],
    [{ kind: "end" }, { kind: "limit", bound: "maxSteps", node: "b" }, { kind: "continue" }, { kind: "continue" }],
  ],
  ["foreign loop bound", () => [superstepCeiling(limits), superstepCeiling(resolveLimits({ maxSteps: 2 }))], [3, 2]],
  [
    "retry",
    () => {
      const policy = { maxAttempts: 3, initialInterval: 100, backoffFactor: 2, maxInterval: 1000, jitter: false, retryOn: undefined };
      return [
        retryDecision(policy, 2, new StepFailure("NODE_FAILED", "flaky", { cause: new Error("flaky") }), Math.random),
        retryDecision(policy, 3, new StepFailure("NODE_FAILED", "flaky", { cause: new Error("flaky") }), Math.random),
        retryDecision(policy, 1, new StepFailure("INVALID_UPDATE", "bad update"), Math.random),
      ];
    },
    [{ retry: true, delay: 200 }, { retry: false }, { retry: false }],
  ],
  [
    "child with static interrupts",
    () => [
      childPauseRefusal("subgraph", "task", settings)?.code,
      childPauseRefusal("subgraph", "task", { ...settings, interruptBefore: new Set(), interruptAfter: new Set() }),
    ],
    ["INVALID_OPTION", undefined],
  ],
  [
    "update source",
    () => [updateSource("b", ["a"]), updateSource(undefined, ["a", "a"]), updateSource(undefined, ["a", "b"]), updateSource(undefined, [])],
    [{ kind: "node", node: "b" }, { kind: "node", node: "a" }, { kind: "ambiguous", nodes: ["a", "b"] }, { kind: "none" }],
  ],
  [
    "cancel",
    () => {
      const paused = snapshot({ tasks: [task("a"), task("b")], joins: [["a"]] });
      const kept = cancelPending(graph, paused, [{ task: 0, node: "a", update: { log: ["a"] } }]);
      return kept.ok ? [kept.snapshot.state, kept.snapshot.tasks, kept.snapshot.joins, kept.snapshot.trace.slice(-1)] : kept;
    },
    [{ log: ["a"], n: 0 }, [], [[]], ["a"]],
  ],
  [
    "reroute",
    () => [reroutes(["c"], "c"), reroutes(["c", "c"], "c"), reroutes(["a", "b"], "a"), reroutes(["a"], "b")],
    [true, true, false, false],
  ],
  [
    "loop exit",
    () => [
      boundedTasks(bounded, [task("a"), task("a", true)], visitCounts(bounded, ["a"])),
      boundedTasks(bounded, [task("a")], visitCounts(bounded, ["a", "b", "a"])),
      advance(
        bounded,
        [],
        [{ source: "b", successors: { tasks: [task("a")], routes: [], list: false } }],
        visitCounts(bounded, ["a", "b", "a", "b"]),
      ).tasks,
    ],
    [[task("a"), task("exit")], [task("exit")], [task("exit")]],
  ],
  [
    "loop bound",
    () => [
      loopBoundStop(bounded, [task("b")], visitCounts(bounded, ["a"]), ["a"]),
      loopBoundStop(bounded, [task("b")], visitCounts(bounded, ["a", "b", "a"]), ["a", "b", "a"])?.node,
      decided(admit(bounded, snapshot({ tasks: [task("b")], trace: ["a", "b", "a"] }), limits, undefined)),
    ],
    [undefined, "b", { kind: "stop", node: "b", bound: undefined, code: "LOOP_BOUND" }],
  ],
  [
    "deferred node",
    () => [
      deferTasks(withDeferred, [task("a"), task("d")]),
      deferTasks(withDeferred, [task("d"), task("b", true)]),
      deferTasks(withDeferred, [task("d", true), task("a")]),
      advance(
        withDeferred,
        [[]],
        [{ source: "c", successors: { tasks: [task("d")], routes: [], list: false } }],
        visitCounts(withDeferred, []),
        [task("d")],
      ),
    ],
    [
      { tasks: [task("a")], deferred: [task("d")] },
      { tasks: [task("d"), task("b", true)], deferred: [] },
      { tasks: [task("d", true), task("a")], deferred: [] },
      { tasks: [task("d")], deferred: [], joins: [[]], routes: [], keys: [undefined] },
    ],
  ],
  [
    "error handler",
    () => [
      handlesFailure(new StepFailure("NODE_FAILED", "threw", { cause: new Error("503") }), false),
      handlesFailure(new StepFailure("NODE_TIMEOUT", "slow"), false),
      handlesFailure(new StepFailure("NODE_FAILED", "threw", { cause: new Error("503") }), true),
      handlesFailure(new StepFailure("NODE_FAILED", "paused", { cause: new NodePaused("ok?") }), false),
      handlesFailure(new StepFailure("ABORTED", "aborted"), false),
      handlesFailure(new StepFailure("NODE_FAILED", "misuse", { cause: Object.assign(new Error("x"), { code: "STEP_LIMIT" }) }), false),
    ],
    [true, true, false, false, false, false],
  ],
  [
    "handled failure routes",
    () => [handledSuccessors({ log: ["h"], __handled__: true }), handledSuccessors({ log: ["a"] }), handledSuccessors(undefined)],
    [{ tasks: [], routes: [], list: false }, undefined, undefined],
  ],
  [
    "foreign superstep",
    () => [
      next(
        graph,
        {
          tasks: [
            { ...task("b"), id: "t1" },
            { ...task("a"), id: "t2" },
            { ...task("b"), id: "t3" },
          ],
          trace: [],
          supersteps: 0,
          joins: [],
        },
        limits,
        undefined,
      ),
      decided(next(graph, { tasks: [task("b"), task("a")], trace: ["a", "b", "c"], supersteps: 2, joins: [] }, limits, undefined)),
    ],
    [
      {
        kind: "run",
        tasks: [
          { ...task("a"), id: "t2" },
          { ...task("b"), id: "t1" },
        ],
      },
      { kind: "stop", node: "b", bound: "maxSteps", code: "STEP_LIMIT" },
    ],
  ],
  [
    "abort while running",
    () => {
      const finished = { settled: succeeded, update: { n: 1 }, routes: [{ from: "a", key: "k", to: "c" }], goto: [task("d")] };
      const running = settle(graph, undefined, [task("a"), task("b")], [finished, undefined], aborted);
      const none = settle(graph, undefined, [], [], aborted);
      const done = settle(
        graph,
        undefined,
        [task("a"), task("b")],
        [finished, { settled: succeeded, update: { __updates__: [{ n: 2 }, { n: 3 }] } }],
      );
      return [
        running.failed?.node,
        running.failed?.failure instanceof StepFailure ? running.failed.failure.code : undefined,
        none.failed?.node,
        done,
      ];
    },
    [
      "b",
      "ABORTED",
      START,
      {
        failed: undefined,
        routes: [
          { from: "a", key: "k", to: "c" },
          { from: "a", key: "d", to: "d", goto: true },
        ],
        updates: [{ n: 1 }, { n: 3 }],
      },
    ],
  ],
];

describe("the run kernel: one row per rule of docs/engine.md", () => {
  it.each(rows)("%s", (_rule, decide, expected) => {
    expect(decide()).toEqual(expected);
  });

  it("every rule docs/engine.md lists under One superstep has a row, and every row a rule", () => {
    const doc = readFileSync(resolve(import.meta.dirname, "../../docs/engine.md"), "utf8");
    const section = doc.slice(doc.indexOf("## One superstep"), doc.indexOf("\n## ", doc.indexOf("## One superstep") + 1));
    const listed = [...section.matchAll(/^\d+\. \*\*(.+?)\*\* \(`(\w+)`\)/gm)].map((match) => match[1] as string);
    expect(listed.length).toBeGreaterThanOrEqual(20);
    expect(rows.map(([rule]) => rule).sort()).toEqual([...listed].sort());
  });

  it("names a function of the kernel for each rule", async () => {
    // Every module of src/engine/kernel/, so a rule named here is decided there, not in a driver.
    const kernelDir = resolve(import.meta.dirname, "../../src/engine/kernel");
    const modules = await Promise.all(readdirSync(kernelDir).map((file) => import(resolve(kernelDir, file))));
    const kernel: Record<string, unknown> = Object.assign({}, ...modules);
    const doc = readFileSync(resolve(import.meta.dirname, "../../docs/engine.md"), "utf8");
    const named = [...doc.matchAll(/^\d+\. \*\*.+?\*\* \(`(\w+)`\)/gm)].map((match) => match[1] as string);
    expect(named.filter((name) => typeof kernel[name] !== "function")).toEqual([]);
  });
});

/** The state a decision left unchanged: the kernel never mutates what it is given. */
describe("the kernel reads its snapshot without changing it", () => {
  it("commit and advance leave their inputs as they were", () => {
    const state: State = Object.freeze({ log: Object.freeze(["x"]), n: 0 });
    const joins = Object.freeze([Object.freeze([] as string[])]);
    expect(commit(graph, state, [task("a")], [{ log: ["a"] }]).ok).toBe(true);
    expect(advance(graph, joins, [{ source: "a", successors: undefined }]).joins).toEqual([["a"]]);
    expect(state).toEqual({ log: ["x"], n: 0 });
    expect(joins).toEqual([[]]);
  });
});
