/**
 * A graph's version, as checkpoints record it: `compile({ version })` (default 1) and the spec's hash,
 * stamped on every checkpoint the graph writes. A checkpoint written before graphs had versions has no
 * stamp and counts as version 1.
 */
import { describeValue } from "../../../_describe.js";
import { InvalidOptionError } from "../../../errors.js";
import type { Checkpoint, GraphStamp } from "../../checkpointer.js";

export type { GraphStamp };

/** The version a graph has when `compile()` is given none. */
export const DEFAULT_GRAPH_VERSION = 1;

/** The version of the graph that wrote `checkpoint`: its stamp's, or 1 for one written before versions. */
export function versionOf(checkpoint: Pick<Checkpoint, "graph">): number {
  return checkpoint.graph?.version ?? DEFAULT_GRAPH_VERSION;
}

/** Whether `value` is a version: a whole number from 1. */
export function isGraphVersion(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 1;
}

/** `compile({ version })`, checked: a whole number from 1; `undefined` is the default. Else `INVALID_OPTION`. */
export function checkVersionOption(value: unknown, api: string): number {
  if (value === undefined) return DEFAULT_GRAPH_VERSION;
  if (isGraphVersion(value)) return value;
  throw new InvalidOptionError(`${api}: version must be a whole number from 1, e.g. { version: 2 }; got ${describeValue(value)}.`);
}
