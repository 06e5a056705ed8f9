/** `addNode`'s `bound` option, read into the spec's {@link BoundSpec}. */
import { quote } from "../_describe.js";
import { invalidArgument } from "../errors.js";
import type { BoundSpec } from "../spec.js";

/**
 * The bound `options.bound` declares for node `name`, checked: an object `{ max, exit? }` with `max` a
 * whole number ≥ 0 and `exit` a name. Whether the exit is a declared node is compile()'s to say
 * (`INVALID_BOUND`), with the other topology problems.
 *
 * @example
 * ```ts
 * boundOption("revise", { bound: { max: 2, exit: "hold" } }); // { node: "revise", max: 2, exit: "hold" }
 * ```
 */
export function boundOption(name: string, bound: unknown): BoundSpec | undefined {
  if (bound === undefined) return undefined;
  const fix = `e.g. { bound: { max: 2, exit: "hold" } }`;
  if (typeof bound !== "object" || bound === null || Array.isArray(bound)) {
    throw invalidArgument(`StateGraph.addNode: the bound of ${quote(name)} must be an object { max, exit? }, ${fix}; got ${quote(bound)}.`);
  }
  const { max, exit, ...rest } = bound as { max?: unknown; exit?: unknown };
  const extra = Object.keys(rest);
  if (extra.length > 0) {
    throw invalidArgument(
      `StateGraph.addNode: the bound of ${quote(name)} has unknown key ${quote(extra[0])}; it takes max and exit, ${fix}.`,
    );
  }
  if (typeof max !== "number" || !Number.isInteger(max) || max < 0) {
    throw invalidArgument(
      `StateGraph.addNode: the bound of ${quote(name)} needs max, a whole number ≥ 0 (visits per run), ${fix}; got ${quote(max)}.`,
    );
  }
  if (exit !== undefined && typeof exit !== "string") {
    throw invalidArgument(`StateGraph.addNode: the exit of ${quote(name)}'s bound must be a node name or END, ${fix}; got ${quote(exit)}.`);
  }
  return { node: name, max, ...(exit === undefined ? {} : { exit }) };
}
