/**
 * A compiled graph's declared migrations, read back: for the check before deploying
 * (`assertResumable`, `tsg check --against`), which compares an old version's spec with this graph
 * through the node maps the graph declares.
 */
import { executableOf, type CompiledGraph } from "./compiled-graph.js";
import type { GraphMigration } from "./graph-stamp.js";

/**
 * The migrations a graph was compiled with (`compile({ version, migrations })`), oldest first; empty
 * for a graph that declares none.
 *
 * @example
 * ```ts
 * migrationsOf(graph).map((migration) => migration.from); // [1, 2] for a version-3 graph
 * ```
 */
export function migrationsOf(graph: CompiledGraph<object, string, object>): readonly GraphMigration[] {
  return executableOf(graph).migrations;
}
