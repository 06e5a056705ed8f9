/**
 * What a compiled graph shows of itself to another copy of the library. `tsg` loads a user's module
 * (under tsx, or from another install) with its own copy of typed-state-graph, whose `CompiledGraph`
 * class and module-level WeakMaps are not this one's: `instanceof` and WeakMap lookups fail for its
 * graphs. A registered symbol (`Symbol.for`) is the same in every copy, so the graph carries, under it,
 * the plain facts a reader needs without running it: its spec, its version stamp, its declared migrations,
 * its state schema and its declared in-node interrupts. Every reader outside the graph's own runs (the CLI's `check`, `check --against`,
 * `inspect`, `stateSchemaOf`, `assertResumable`) reads a graph through {@link graphBrandOf}.
 */
import type { GraphSpec } from "../spec.js";
import type { GraphMigration, GraphStamp } from "./graph-stamp.js";
import type { DeclaredInterrupt } from "./interrupt.js";
import { isStandardSchema } from "./kernel/state-check.js";
import type { StandardSchemaV1 } from "./state-schema.js";

/** The registered symbol a compiled graph carries its {@link GraphBrand} under. */
export const GRAPH_BRAND: unique symbol = Symbol.for("typed-state-graph/graph");

/** What a compiled graph shows of itself to any copy of the library. */
export interface GraphBrand {
  /** The graph's spec (frozen). */
  readonly spec: GraphSpec;
  /** `compile({ version })` and the spec's hash, as its checkpoints record them. */
  readonly stamp: GraphStamp;
  /** The migrations `compile({ migrations })` declared, oldest first. */
  readonly migrations: readonly GraphMigration[];
  /** The Standard Schema the state was declared with, or `undefined` for a graph declared with a type only. */
  readonly stateSchema: StandardSchemaV1 | undefined;
  /** The in-node interrupts `compile({ interrupts })` declared, with their answer schemas (`exploreGraph` answers from them). */
  readonly interrupts: readonly DeclaredInterrupt[];
}

/**
 * Puts `brand` on `graph` under {@link GRAPH_BRAND} (not enumerable, not writable) and returns the graph.
 *
 * @example
 * ```ts
 * const compiled = brandGraph(new CompiledGraph(spec, executable), { spec, stamp, migrations, stateSchema, interrupts: [] });
 * ```
 */
export function brandGraph<G extends object>(graph: G, brand: GraphBrand): G {
  Object.defineProperty(graph, GRAPH_BRAND, { value: Object.freeze({ ...brand }) });
  return graph;
}

/**
 * The brand of a compiled graph made by any copy of the library, or `undefined` for a value that carries
 * none (or one whose shape this copy does not read: a much older or newer release's).
 *
 * @example
 * ```ts
 * graphBrandOf(module.graph)?.migrations.map((migration) => migration.from); // [1] for a version-2 graph
 * ```
 */
export function graphBrandOf(value: unknown): GraphBrand | undefined {
  if ((typeof value !== "object" && typeof value !== "function") || value === null) return undefined;
  const brand = (value as { [GRAPH_BRAND]?: unknown })[GRAPH_BRAND];
  if (typeof brand !== "object" || brand === null) return undefined;
  const { spec, stamp, migrations, stateSchema, interrupts } = brand as Partial<Record<keyof GraphBrand, unknown>>;
  const specLike = typeof spec === "object" && spec !== null && Array.isArray((spec as { nodes?: unknown }).nodes);
  const stampLike = typeof stamp === "object" && stamp !== null && typeof (stamp as { version?: unknown }).version === "number";
  const schemaLike = stateSchema === undefined || isStandardSchema(stateSchema);
  if (!specLike || !stampLike || !Array.isArray(migrations) || !migrations.every(isMigration) || !schemaLike) return undefined;
  if (!Array.isArray(interrupts)) return undefined;
  return brand as GraphBrand;
}

/** A migration as `migrateFrom` makes it, read by shape (another copy's `migrateFrom` made it). */
function isMigration(value: unknown): value is GraphMigration {
  if (typeof value !== "object" || value === null) return false;
  const { from, oldNodes, nodes } = value as Partial<Record<keyof GraphMigration, unknown>>;
  return typeof from === "number" && Array.isArray(oldNodes) && typeof nodes === "object" && nodes !== null;
}
