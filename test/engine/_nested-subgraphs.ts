/**
 * The nested graph of the `subgraphs: true` stream tests: START → p_one → p_two (a subgraph: c_one →
 * c_two → c_three, itself a subgraph: g_one) → END; p_one, c_two and g_one write custom events, g_one a
 * message delta, and with `ask` g_one pauses at an interrupt. And `outline`, a chunk in a line.
 */
import { END, interrupt, MessageDelta, START, StateGraph } from "../../src/index.js";

export interface S {
  at: string;
}

export function nested(ask = false) {
  const grandchild = new StateGraph<S>()
    .addNode("g_one", (_s, { writer }) => {
      writer({ from: "grandchild" });
      writer(new MessageDelta("m1", "hi"));
      if (ask) interrupt("ok?");
      return { at: "g_one" };
    })
    .addEdge(START, "g_one")
    .addEdge("g_one", END)
    .compile();
  const child = new StateGraph<S>()
    .addNode("c_one", () => ({ at: "c_one" }))
    .addNode("c_two", (_s, { writer }) => (writer({ from: "child" }), { at: "c_two" }))
    .addNode("c_three", grandchild)
    .addEdge(START, "c_one")
    .addEdge("c_one", "c_two")
    .addEdge("c_two", "c_three")
    .addEdge("c_three", END)
    .compile();
  return new StateGraph<S>()
    .addNode("p_one", (_s, { writer }) => (writer({ from: "parent" }), { at: "p_one" }))
    .addNode("p_two", child)
    .addEdge(START, "p_one")
    .addEdge("p_one", "p_two")
    .addEdge("p_two", END)
    .compile();
}

/** A tagged chunk: namespace, mode, payload. */
export type Tagged = readonly [namespace: readonly string[], mode: string, payload: Record<string, unknown>];

/** `[namespace, mode, what it is about]`: a step's node, a state's `at`, an event's `from`, a task (` done` for its result), a debug event's type, a checkpoint's step. */
export function outline([namespace, mode, payload]: Tagged): readonly [readonly string[], string, unknown] {
  const about =
    mode === "updates"
      ? payload.node
      : mode === "values"
        ? (payload.state as S).at
        : mode === "custom"
          ? (payload.event as { from: string }).from
          : mode === "messages"
            ? payload.delta
            : mode === "tasks"
              ? `${payload.name}${"input" in payload ? "" : " done"}`
              : mode === "checkpoints"
                ? payload.step
                : payload.type;
  return [namespace, mode, about];
}
