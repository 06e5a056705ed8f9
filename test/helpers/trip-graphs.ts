/**
 * The trip of docs/persistence.md's subgraph sections, for the tests of a paused child's thread:
 * plan → book (the `booking` child: search → approve, which asks) → END, each node counting its starts.
 */
import { expect } from "vitest";
import { append, END, interrupt, START, StateGraph } from "../../src/index.js";
import { MemoryCheckpointer } from "../../src/persistence/index.js";

export type Trip = { flight: string; log: string[] };

export const tripInput: Trip = { flight: "", log: [] };

/** The child graph `booking` and the parent `trip` that runs it as its node "book". */
export function tripGraphs() {
  const runs = { plan: 0, search: 0, approve: 0 };
  const booking = new StateGraph<Trip>({ reducers: { log: append } })
    .addNode("search", () => (runs.search++, { flight: "LY 123", log: ["searched"] }))
    .addNode("approve", (s) => {
      runs.approve++;
      return { log: [`${s.flight}: ${interrupt<string>({ question: `Book ${s.flight}?` })}`] };
    })
    .addEdge(START, "search")
    .addEdge("search", "approve")
    .addEdge("approve", END)
    .compile();
  const trip = new StateGraph<Trip>({ reducers: { log: append } })
    .addNode("plan", () => (runs.plan++, { log: ["planned"] }))
    .addNode("book", booking)
    .addEdge(START, "plan")
    .addEdge("plan", "book")
    .addEdge("book", END)
    .compile();
  return { runs, booking, trip };
}

/** Runs the trip (thread "trip") to its pause inside "book" and returns the child's state, as getState shows it. */
export async function pausedInChild(checkpointer = new MemoryCheckpointer()) {
  const graphs = tripGraphs();
  const paused = await graphs.trip.invoke(tripInput, { threadId: "trip", checkpointer });
  expect(paused.status).toBe("interrupted");
  const view = await graphs.trip.getState("trip", { checkpointer, subgraphs: true });
  const child = view?.tasks[0]?.state;
  if (child === undefined) throw new Error("expected the child's state");
  return { ...graphs, checkpointer, child };
}
