/** Which node names and route keys XState can carry unchanged, shared by both exported machines. */
import { END, START, type GraphSpec } from "../spec.js";
import { XStateExportError } from "./errors.js";

/**
 * Throws an {@link XStateExportError} naming every node whose name XState would misread as an id (a
 * leading `#`: restoring a persisted snapshot fails on it), `__proto__`, or a name that clashes with a
 * state the export adds.
 * Other characters are safe: transitions target states by generated ids, never by name.
 */
export function checkNodeNames(spec: GraphSpec, api: string, addedStates: readonly string[]): void {
  // XState copies state configs into plain objects, where "__proto__" would set the prototype.
  const bad = spec.nodes.filter((node) => node.startsWith("#") || node === "__proto__");
  if (bad.length > 0) {
    throw new XStateExportError(
      "UNSUPPORTED_NAME",
      `${api}: XState reads a state name that starts with "#" as an id, and cannot hold a state named "__proto__", so these nodes ` +
        `cannot be states: ${bad.map((n) => JSON.stringify(n)).join(", ")}. Rename them.`,
      bad,
    );
  }
  const clashing = spec.nodes.filter((node) => addedStates.includes(node));
  if (clashing.length > 0) {
    throw new XStateExportError(
      "UNSUPPORTED_NAME",
      `${api}: the machine adds a state named ${clashing.map((n) => JSON.stringify(n)).join(", ")}, which is also a node. Rename the node.`,
      clashing,
    );
  }
}

/**
 * The id of each state (START, the nodes, END, and any added state): `<machine>:start`, `<machine>:n0`…
 * Targets use them, so a node name may hold `.` or `\`, which XState would read in a path.
 */
export function stateIds(spec: GraphSpec, machineId: string, added: readonly string[] = []): Map<string, string> {
  const ids = new Map<string, string>([
    [START, `${machineId}:start`],
    [END, `${machineId}:end`],
  ]);
  spec.nodes.forEach((node, index) => ids.set(node, `${machineId}:n${index}`));
  added.forEach((state, index) => ids.set(state, `${machineId}:a${index}`));
  return ids;
}

/**
 * Whether a spec declares a rule that can start several nodes at once: a fan-out, a join, a list path
 * map, or a node's `ends` (its Command's goto adds to its own edge, and may name several nodes or Sends).
 */
export function isParallelSpec(spec: GraphSpec): boolean {
  return (
    (spec.fanOuts?.length ?? 0) > 0 ||
    (spec.joins?.length ?? 0) > 0 ||
    (spec.ends?.length ?? 0) > 0 ||
    spec.routes.some((route) => route.sends === true)
  );
}

/**
 * Throws an {@link XStateExportError} naming every source that can start several nodes at once: a
 * machine with one state per node (and the coverage model) runs one node at a time. `allowListRoutes` accepts routers declared with a list path map
 * (each key is still one event of the coverage model).
 */
export function checkSequential(spec: GraphSpec, api: string, { allowListRoutes }: { allowListRoutes: boolean }): void {
  const parallel = [
    ...(spec.fanOuts ?? []).map((f) => f.from),
    ...(spec.joins ?? []).flatMap((j) => j.from),
    ...(spec.ends ?? []).map((e) => e.from),
    ...(allowListRoutes ? [] : spec.routes.filter((r) => r.sends === true).map((r) => r.from)),
  ];
  if (parallel.length > 0) {
    throw new XStateExportError(
      "UNSUPPORTED_GRAPH",
      `${api}: this machine has one state per node and runs one node at a time, and these sources can start several at once (a fan-out, a join, ` +
        `a router with a list path map, or a node's Command ends): ${[...new Set(parallel)].map((n) => JSON.stringify(n)).join(", ")}. ` +
        (api === "toCoverageModel"
          ? `Plan this graph with coveragePlan(graph), which plans runs superstep by superstep.`
          : `Use layout "supersteps" (the default for such graphs), which runs them superstep by superstep.`),
      [...new Set(parallel)],
    );
  }
}

/** Throws an {@link XStateExportError} naming every route key XState would read as a wildcard (`*`). */
export function checkRouteKeys(spec: GraphSpec, api: string): void {
  const bad = spec.routes.flatMap((route) =>
    Object.keys(route.paths)
      .filter((key) => key.includes("*"))
      .map((key) => `${route.from}: ${key}`),
  );
  if (bad.length > 0) {
    throw new XStateExportError(
      "UNSUPPORTED_NAME",
      `${api}: route keys become events such as "route.accept", and XState reads "*" in an event as a wildcard: ${bad.join(", ")}. ` +
        `Rename these keys.`,
      bad,
    );
  }
}
