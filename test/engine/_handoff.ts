/**
 * The graphs of the `Command.PARENT` tests (engine, threads, XState, LangGraph): a parent `p0 → sub →
 * after` whose subgraph node `sub` declares `billing` among its ends, and a child whose node `c1` hands
 * off to the parent's `billing`. The child runs `c0` first, then `c1` beside a sibling `c2` (whose write
 * never reaches the parent), then `c3`, which the handoff keeps from running. With `pause`, `c0` asks a
 * question first (a thread's interrupt inside the child, before the handoff).
 */
import { append, Command, compileGraph, END, interrupt, START, StateGraph } from "../../src/index.js";

export interface Desk {
  log: string[];
  who: string;
}

/**
 * The child graph: `c1` hands off to the parent's `billing` with an update of the parent's fields.
 * Built from a spec: the typed builder checks a node's goto against its own graph's ends, and does not
 * type a goto for the parent yet.
 */
export function handingChild(pause = false) {
  return compileGraph<Desk>({
    spec: {
      nodes: ["c0", "c1", "c2", "c3"],
      fields: ["log", "who"],
      edges: [
        { from: START, to: "c0" },
        { from: "c1", to: "c3" },
        { from: "c2", to: "c3" },
        { from: "c3", to: END },
      ],
      routes: [],
      fanOuts: [{ from: "c0", to: ["c1", "c2"] }],
      reducers: [{ field: "log", reducer: "append" }],
    },
    nodes: {
      c0: () => ({ log: [pause ? interrupt<string>("which desk?") : "c0"] }),
      c1: () => new Command({ graph: Command.PARENT, goto: "billing", update: { log: ["c1"], who: "c1" } }),
      c2: () => ({ log: ["c2"] }),
      c3: () => ({ log: ["c3"] }),
    },
    routers: {},
    reducers: { log: append },
  });
}

/** The parent: `sub` runs the child, declares `billing` among its ends, and has its own edge to `after` (or a route, `routed`). */
export function handoffParent(pause = false, routed = false) {
  const parent = new StateGraph<Desk>({ reducers: { log: append }, fields: ["log", "who"] })
    .addNode("p0", () => ({ log: ["p0"] }))
    .addNode("sub", handingChild(pause), { ends: ["billing"] })
    .addNode("after", () => ({ log: ["after"] }))
    .addNode("billing", () => ({ log: ["billing"] }))
    .addEdge(START, "p0")
    .addEdge("p0", "sub")
    .addEdge("after", END)
    .addEdge("billing", END);
  return (routed ? parent.addConditionalEdges("sub", () => "after", { after: "after" }) : parent.addEdge("sub", "after")).compile();
}
