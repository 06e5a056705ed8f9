/** The brand a compiled graph carries for other copies of the library: what it holds, and what is refused as one. */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { GRAPH_BRAND, graphBrandOf } from "../../src/engine/index.js";
import { END, START, stateGraph, stateSchemaOf } from "../../src/index.js";
import { reviewV2 } from "./threads/versions/review-versions.js";

const ticketSchema = z.object({ amount: z.number() });
const ticket = stateGraph(ticketSchema)()
  .addNode("settle", () => ({ amount: 0 }))
  .addEdge(START, "settle")
  .addEdge("settle", END)
  .compile();

describe("graphBrandOf", () => {
  it("reads a compiled graph's spec, version stamp, declared migrations, state schema and declared interrupts", () => {
    const graph = reviewV2();
    const brand = graphBrandOf(graph);
    expect(brand?.spec).toBe(graph.spec);
    expect(brand?.stamp.version).toBe(2);
    expect(brand?.migrations.map((migration) => migration.from)).toEqual([1]);
    expect(brand?.stateSchema).toBeUndefined();
    expect(brand?.interrupts).toEqual([]);
    expect(graphBrandOf(ticket)?.stateSchema).toBe(ticketSchema);
    expect(stateSchemaOf(ticket)).toBe(ticketSchema);
  });

  it("is under the registered symbol, hidden from keys and JSON, and frozen", () => {
    expect(GRAPH_BRAND).toBe(Symbol.for("typed-state-graph/graph"));
    expect(Object.getOwnPropertySymbols(ticket)).toContain(GRAPH_BRAND);
    expect(Object.keys(ticket)).not.toContain(GRAPH_BRAND);
    expect(Object.isFrozen(graphBrandOf(ticket))).toBe(true);
  });

  it.each([
    ["null", null],
    ["a plain object", {}],
    ["a brand without a spec", { [GRAPH_BRAND]: { stamp: { version: 1 }, migrations: [], stateSchema: undefined, interrupts: [] } }],
    [
      "a brand without its interrupts",
      { [GRAPH_BRAND]: { spec: { nodes: [] }, stamp: { version: 1 }, migrations: [], stateSchema: undefined } },
    ],
    ["a brand whose migrations are not migrations", { [GRAPH_BRAND]: { spec: { nodes: [] }, stamp: { version: 1 }, migrations: [1] } }],
    [
      "a brand whose state schema is no Standard Schema",
      { [GRAPH_BRAND]: { spec: { nodes: [] }, stamp: { version: 1 }, migrations: [], stateSchema: {} } },
    ],
  ])("%s is no graph", (_what, value) => {
    expect(graphBrandOf(value)).toBeUndefined();
  });
});
