/** Small graphs the engine tests share. */
import { append, END, START, StateGraph } from "../../src/index.js";

export interface CounterState {
  n: number;
  log: string[];
  note: string | null;
  nested: { items: number[] };
}

export const counterInput = (): CounterState => ({ n: 0, log: [], note: null, nested: { items: [] } });

/** START → inc ⟲ (while n < limit) → done → END */
export function counterGraph(limit = 3) {
  return new StateGraph<CounterState>({ reducers: { log: append } })
    .addNode("inc", (s) => ({ n: s.n + 1, log: [`inc ${s.n + 1}`] }))
    .addNode("done", () => ({ note: "finished" }))
    .addEdge(START, "inc")
    .addConditionalEdges("inc", (s) => (s.n < limit ? "again" : "stop"), { again: "inc", stop: "done" })
    .addEdge("done", END)
    .compile();
}

/** A graph of one node with the given function: START → only → END. */
export function singleNodeGraph(node: (state: CounterState) => unknown) {
  return new StateGraph<CounterState>({ reducers: { log: append } })
    .addNode("only", node as (state: CounterState) => void)
    .addEdge(START, "only")
    .addEdge("only", END)
    .compile();
}

/** START → tick ⟲ (until n reaches `limit`) → END, through a routed choice: a state of constant size, a trace and routes that grow by one per superstep. */
export function tickerGraph(limit: number) {
  return new StateGraph<{ n: number }>()
    .addNode("tick", (s) => ({ n: s.n + 1 }))
    .addEdge(START, "tick")
    .addConditionalEdges("tick", (s) => (s.n < limit ? "again" : "stop"), { again: "tick", stop: END })
    .compile();
}
