/**
 * What a stored checkpoint must look like to be resumed: a store that reads JSON written by someone
 * else (another version, another tool, a damaged disk) checks it here, so a wrong shape is a coded
 * error naming the field instead of a `TypeError` somewhere inside a resumed run.
 */
import type { Checkpoint } from "../engine/index.js";

type Check = (value: unknown) => boolean;

const isString: Check = (value) => typeof value === "string";
const isCount: Check = (value) => Number.isSafeInteger(value) && (value as number) >= 0;
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const arrayOf =
  (item: Check): Check =>
  (value) =>
    Array.isArray(value) && value.every(item);
const isTask: Check = (value) => isRecord(value) && isString(value.node) && typeof value.sent === "boolean";
const isRoute: Check = (value) => isRecord(value) && isString(value.from) && isString(value.key) && isString(value.to);
const SOURCES: readonly unknown[] = ["input", "loop", "update", "interrupt"];
const isMetadata: Check = (value) =>
  isRecord(value) &&
  SOURCES.includes(value.source) &&
  arrayOf(isString)(value.writes) &&
  (value.user === undefined || isRecord(value.user));

/** Each field of a checkpoint, and what it must hold (described for the message). */
const FIELDS: readonly (readonly [keyof Checkpoint, Check, string])[] = [
  ["id", isString, "a string"],
  ["parentId", (value) => value === null || isString(value), "a string or null"],
  ["threadId", isString, "a string"],
  ["step", isCount, "a whole number"],
  ["state", isRecord, "an object"],
  ["next", arrayOf(isString), "a list of node names"],
  ["tasks", arrayOf(isTask), "a list of { node, sent } tasks"],
  ["trace", arrayOf(isString), "a list of node names"],
  ["routes", arrayOf(isRoute), "a list of { from, key, to } routes"],
  ["supersteps", isCount, "a whole number"],
  ["joins", arrayOf(arrayOf(isString)), "a list of lists of node names"],
  ["createdAt", isString, "a string"],
  ["metadata", isMetadata, 'an object { source: "input" | "loop" | "update" | "interrupt", writes, user? }'],
];

/** The optional `graph` stamp: absent (written before graph versions), or a version from 1 and a spec hash. */
const isStamp: Check = (value) =>
  value === undefined ||
  (isRecord(value) && Number.isSafeInteger(value.version) && (value.version as number) >= 1 && isString(value.specHash));

/** The fields a stored body of schema 4 leaves out: its trace and routes are kept as a delta beside it. */
const LISTS: ReadonlySet<keyof Checkpoint> = new Set(["trace", "routes"]);

/**
 * What is wrong with `value` as a checkpoint (`"its field step is not a whole number"`), or
 * `undefined` when it is one. `withLists: false` checks a stored body without its trace and routes.
 */
export function checkpointShapeProblem(value: unknown, withLists = true): string | undefined {
  if (!isRecord(value)) return `it is ${value === null ? "null" : Array.isArray(value) ? "a list" : `a ${typeof value}`}, not an object`;
  const wrong = FIELDS.find(([field, check]) => (withLists || !LISTS.has(field)) && !check(value[field]));
  if (wrong !== undefined) return `its field ${wrong[0]} is not ${wrong[2]}`;
  if (value.deferred !== undefined && !arrayOf(isTask)(value.deferred)) return "its field deferred is not a list of { node, sent } tasks";
  return isStamp(value.graph) ? undefined : "its field graph is not { version: a whole number from 1, specHash: a string }";
}
