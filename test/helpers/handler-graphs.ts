/**
 * Graphs whose nodes fail and whose error handlers answer (`addNode(name, fn, { errorHandler })`,
 * `compile({ errorHandler })`), shared by the engine, XState and LangGraph.js suites: each is written
 * natively on LangGraph.js 1.7.3 in test/langgraph/error-handlers.test.ts.
 */
import { append, Command, END, START, StateGraph, type CompileOptions } from "../../src/index.js";

export interface LogState {
  log: string[];
}

const step = (name: string) => (): Partial<LogState> => ({ log: [name] });
const boom = (): never => {
  throw new Error("boom");
};
const messageOf = (error: unknown): string =>
  error instanceof Error
    ? error.message
    : typeof error === "object" && error !== null
      ? String((error as { message?: unknown }).message)
      : String(error);

/**
 * START → a (throws; its handler answers) and c in parallel; a → b. The handler's update merges in a's
 * place, and b never runs: a handled node's own edge does not apply.
 */
export function handledBesideSibling(options: CompileOptions<"a" | "b" | "c", LogState> = {}) {
  return new StateGraph<LogState>({ reducers: { log: append } })
    .addNode("a", boom, { errorHandler: (_s, { node, error }) => ({ log: [`handled ${node}: ${messageOf(error)}`] }) })
    .addNode("b", step("b"))
    .addNode("c", step("c"))
    .addEdge(START, ["a", "c"])
    .addEdge("a", "b")
    .addEdge("c", END)
    .addEdge("b", END)
    .compile(options);
}

/** START → a (throws) → b; a's handler goes to its declared end r instead (`Command` goto). */
export function handledToRecovery(options: CompileOptions<"a" | "b" | "r", LogState> = {}) {
  return new StateGraph<LogState>({ reducers: { log: append } })
    .addNode("a", boom, {
      ends: ["r"],
      errorHandler: (s) => new Command({ update: { log: [`h(${s.log.length})`] }, goto: "r" }),
    })
    .addNode("b", step("b"))
    .addNode("r", step("r"))
    .addEdge(START, "a")
    .addEdge("a", "b")
    .addEdge("b", END)
    .addEdge("r", END)
    .compile(options);
}

/** START → a and b, both throw; the graph-wide default handler answers for both. */
export function defaultHandler(options: CompileOptions<"a" | "b", LogState> = {}) {
  return new StateGraph<LogState>({ reducers: { log: append } })
    .addNode("a", boom)
    .addNode("b", boom)
    .addEdge(START, ["a", "b"])
    .addEdge("a", END)
    .addEdge("b", END)
    .compile({ errorHandler: (_s, { node }) => ({ log: [`d:${node}`] }), ...options });
}
