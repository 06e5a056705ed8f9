/** What the graph commands (`diagram`, `paths`) share: a graph that must validate before it is drawn or planned. */
import type { GraphSpec } from "../index.js";
import { loadGraph, type GraphLoaders } from "./graph-source.js";
import { UsageError } from "./io.js";

/**
 * The spec of the graph an argument names, or a {@link UsageError} (exit 2) when it has problems,
 * pointing at `tsg check`, which lists them.
 *
 * @example
 * ```ts
 * const spec = await specOrRefusal("./dist/graph.js#triage");
 * ```
 */
export async function specOrRefusal(argument: string, loaders?: GraphLoaders): Promise<GraphSpec> {
  const source = await loadGraph(argument, loaders);
  if (source.spec !== undefined) return source.spec;
  const count = `${source.problems.length} problem${source.problems.length === 1 ? "" : "s"}`;
  throw new UsageError(`${source.label} does not validate (${count}); tsg check ${source.label} lists them.`);
}
