/**
 * Graphs with a deferred node (`addNode(name, fn, { defer: true })`), shared by the engines' tests:
 * map-reduce whose branches differ in length, where the reduce must run once, after the longest branch.
 */
import { append, END, Send, START, StateGraph, type CompileOptions } from "../../src/index.js";

export interface LogState {
  log: string[];
}

/** Each node appends its name; the reduce appends what it saw. */
const step = (name: string) => (): Partial<LogState> => ({ log: [name] });
const reduce = (s: LogState): Partial<LogState> => ({ log: [`reduce(${s.log.join(",")})`] });

/**
 * START → [a, b]; a → a2 → reduce; b → reduce. With `defer`, reduce runs once, after a2; without it,
 * reduce runs after b (before a2) and again after a2.
 */
export function unevenBranches(defer = true, options: CompileOptions<"a" | "b" | "a2" | "reduce", LogState> = {}) {
  return new StateGraph<LogState>({ reducers: { log: append }, fields: ["log"] })
    .addNode("a", step("a"))
    .addNode("b", step("b"))
    .addNode("a2", step("a2"))
    .addNode("reduce", reduce, { defer })
    .addEdge(START, ["a", "b"])
    .addEdge("a", "a2")
    .addEdge("a2", "reduce")
    .addEdge("b", "reduce")
    .addEdge("reduce", END)
    .compile(options);
}

/**
 * START → [a, b]; a → reduce (deferred); b Sends two items to "work", which goes to END. The Sends do
 * not hold the reduce back (in LangGraph they trigger no node's channel): it runs with them. The reduce is
 * declared first, so both engines merge it before the Sends (LangGraph merges Sends last, this library in
 * declaration order: a documented difference this graph stays clear of).
 */
export function reduceBesideSends() {
  return new StateGraph<LogState>({ reducers: { log: append }, fields: ["log"] })
    .addNode("a", step("a"))
    .addNode("b", step("b"))
    .addNode("reduce", reduce, { defer: true })
    .addNode("work", (s: LogState) => ({ log: [`work(${s.log.length})`] }))
    .addEdge(START, ["a", "b"])
    .addEdge("a", "reduce")
    .addConditionalEdges("b", () => [new Send("work", { log: [] }), new Send("work", { log: ["x"] })], ["work"])
    .addEdge("work", END)
    .addEdge("reduce", END)
    .compile();
}

/**
 * A join into a deferred node, and a third branch that runs longer: START → [a, b, c]; [a, b] → reduce
 * (deferred); c → c2 → c3 → END. The join fires after a and b, and reduce then waits for c3.
 */
export function joinIntoDeferred() {
  return new StateGraph<LogState>({ reducers: { log: append }, fields: ["log"] })
    .addNode("a", step("a"))
    .addNode("b", step("b"))
    .addNode("c", step("c"))
    .addNode("c2", step("c2"))
    .addNode("c3", step("c3"))
    .addNode("reduce", reduce, { defer: true })
    .addEdge(START, ["a", "b", "c"])
    .addEdge(["a", "b"], "reduce")
    .addEdge("c", "c2")
    .addEdge("c2", "c3")
    .addEdge("c3", END)
    .addEdge("reduce", END)
    .compile();
}
