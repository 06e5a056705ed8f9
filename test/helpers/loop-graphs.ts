/** The seed's revise loop, bounded: the graphs the loop-bound tests of every engine share. */
import { append, END, START, StateGraph, type CompiledGraph } from "../../src/index.js";
import type { Checkpointer } from "../../src/engine/index.js";

export interface DraftState {
  revisions: number;
  /** How many drafts fail the check before one passes (a large number: a stubborn writer). */
  failing: number;
  status: string;
  events: string[];
}

export const draftInput = (failing: number): DraftState => ({ revisions: 0, failing, status: "working", events: [] });

/**
 * START → write → check ─accept→ publish → END, check ─revise→ revise → check; `revise` is bounded to
 * `max` visits per run, with `exit` as its exit when given (`hold`, which ends with needs_attention).
 */
export function reviseLoop(
  max: number,
  exit?: "hold" | typeof END,
  options: { checkpointer?: Checkpointer; interruptBefore?: readonly "check"[]; interruptAfter?: readonly "check"[] } = {},
): CompiledGraph<DraftState> {
  const builder = new StateGraph<DraftState>({ reducers: { events: append }, fields: ["revisions", "failing", "status", "events"] })
    .addNode("write", () => ({ events: ["write"] }))
    .addNode("check", (s) => ({ events: [s.revisions >= s.failing ? "check: accepted" : "check: rejected"] }))
    .addNode("revise", (s) => ({ revisions: s.revisions + 1, events: ["revise"] }), {
      bound: exit === undefined ? { max } : { max, exit },
    })
    .addNode("publish", () => ({ status: "published", events: ["publish"] }))
    .addEdge(START, "write")
    .addEdge("write", "check")
    .addConditionalEdges("check", (s) => (s.revisions >= s.failing ? "accept" : "revise"), { accept: "publish", revise: "revise" })
    .addEdge("revise", "check")
    .addEdge("publish", END);
  // hold is reached through the bound alone.
  // The exit is a parameter (a union of names): the run-time validation checks the topology here.
  if (exit !== "hold") return builder.compile({ ...options, typeLevelTopology: false });
  return builder
    .addNode("hold", () => ({ status: "needs_attention", events: ["hold"] }))
    .addEdge("hold", END)
    .compile({ ...options, typeLevelTopology: false });
}
