/**
 * Graphs whose nodes return a list of Commands (LangGraph.js 1.7.3 allows it), shared by the engines'
 * tests: the updates apply in the list's order, the gotos are all taken.
 */
import { append, Command, END, Send, START, StateGraph, type CompileOptions } from "../../src/index.js";

export interface Desk {
  topic: string;
  log: string[];
}

export const DESK = { reducers: { log: append }, fields: ["topic", "log"] } as const;

/**
 * START → triage; triage returns two Commands: one sets the topic and goes to "billing", one logs and
 * goes to "support". Both run in the next superstep.
 */
export function fanOutByCommands(options: CompileOptions<"triage" | "billing" | "support", Desk> = {}) {
  return new StateGraph<Desk>(DESK)
    .addNode(
      "triage",
      () => [new Command({ update: { topic: "refund" }, goto: "billing" }), new Command({ update: { log: ["triage"] }, goto: "support" })],
      { ends: ["billing", "support"] },
    )
    .addNode("billing", (s) => ({ log: [`billing(${s.topic})`] }))
    .addNode("support", (s) => ({ log: [`support(${s.topic})`] }))
    .addEdge(START, "triage")
    .addEdge("billing", END)
    .addEdge("support", END)
    .compile(options);
}

/**
 * START → a; a's three Commands each append to `log` (a reducer field written three times: each write
 * merges, in order) and the last Sends an item to "work".
 */
export function reducerWrittenThrice(options: CompileOptions<"a" | "work", Desk> = {}) {
  return new StateGraph<Desk>(DESK)
    .addNode(
      "a",
      () => [
        new Command({ update: { log: ["one"] } }),
        new Command({ update: { log: ["two"], topic: "t" } }),
        new Command({ update: { log: ["three"] }, goto: new Send("work", { topic: "sent", log: [] }) }),
      ],
      { ends: ["work"] },
    )
    .addNode("work", (s) => ({ log: [`work(${s.topic})`] }))
    .addEdge(START, "a")
    .addEdge("a", END)
    .addEdge("work", END)
    .compile(options);
}

/** START → a; a's two Commands both write `topic`, which has no reducer: `CONCURRENT_WRITE`, as LangGraph refuses it. */
export function plainFieldWrittenTwice() {
  return new StateGraph<Desk>(DESK)
    .addNode("a", () => [new Command({ update: { topic: "x" } }), new Command({ update: { topic: "y" } })])
    .addEdge(START, "a")
    .addEdge("a", END)
    .compile();
}
