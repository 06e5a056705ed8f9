/**
 * What a checkpoint records of the graph that wrote it, and the migrations a graph declares (issue 42):
 * a leaf of the engine's imports, since the checkpoint contract, the compiled tables and the run name them.
 */
import type { JsonValue, PendingInterrupt } from "./checkpoint-values.js";

/**
 * What a checkpoint records of the graph that wrote it.
 *
 * @example
 * ```ts
 * (await checkpointer.latest("t1"))?.graph; // { version: 2, specHash: "9c1e07a4" }
 * ```
 */
export interface GraphStamp {
  /** The `compile({ version })` of the graph that wrote the checkpoint (1 unless given). */
  readonly version: number;
  /** The hash of that graph's spec (8 hex digits): two builds of one version with different specs tell apart. */
  readonly specHash: string;
}

/**
 * One declared migration, as `compile({ migrations })` takes it: made by {@link migrateFrom}. `S` is the
 * state it produces and `N` the node names it maps to, so a graph accepts only migrations into its own.
 */
export interface GraphMigration<S = unknown, N extends string = string> {
  readonly from: number;
  /** The old graph's node names, from its spec. */
  readonly oldNodes: readonly string[];
  /** The node names of the version it leads to, when that is not the compiled graph (`to`). */
  readonly toNodes: readonly string[] | undefined;
  readonly state: ((old: never) => S) | undefined;
  readonly nodes: Readonly<Record<string, N>>;
  readonly sends: ((payload: JsonValue, node: never) => JsonValue) | undefined;
  readonly answers: ((answer: JsonValue, pending: PendingInterrupt) => JsonValue) | undefined;
  readonly writes: ((update: never, node: never) => unknown) | undefined;
}
