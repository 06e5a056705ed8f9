/**
 * `stream`'s options read once: which modes it yields, whether it tags its chunks with their mode, and
 * whether it yields its subgraphs' chunks under their namespace (`subgraphs: true`). Also what a
 * subgraph's run streams into when its parent's stream asked for them ({@link ChildStream}).
 */
import { quote } from "../_describe.js";
import { InvalidOptionError } from "../errors.js";
import type { StreamMode } from "./run-types.js";

const MODES: readonly StreamMode[] = ["updates", "values", "custom", "messages", "tasks", "checkpoints", "debug"];

/** Which modes a stream yields, whether it tags its chunks `[mode, payload]`, and whether it yields its subgraphs' chunks. */
export interface StreamModes {
  readonly updates: boolean;
  readonly values: boolean;
  readonly custom: boolean;
  readonly messages: boolean;
  readonly tasks: boolean;
  readonly checkpoints: boolean;
  readonly debug: boolean;
  readonly tagged: boolean;
  readonly subgraphs: boolean;
}

/** One chunk of a run's stream before it is shaped for the caller: where it comes from (`[]`: the run itself), its mode, its payload. */
export type Chunk = readonly [namespace: readonly string[], mode: StreamMode, payload: unknown];

/**
 * Where a subgraph's run inside a task streams its chunks, when the parent's stream has `subgraphs: true`:
 * the parent's modes, and `emit`, which files a chunk of the child under the task's namespace.
 */
export interface ChildStream {
  readonly modes: StreamModes;
  emit(chunk: Chunk): void;
}

/** Checks `streamMode` (one mode, or a non-empty list of them) and `subgraphs` (a boolean). */
export function checkStreamMode(value: unknown, subgraphs?: unknown, api = "stream"): StreamModes {
  if (subgraphs !== undefined && typeof subgraphs !== "boolean")
    throw new InvalidOptionError(`${api}: subgraphs must be true or false; got ${quote(subgraphs)}.`);
  const nested = subgraphs === true;
  if (value === undefined)
    return {
      updates: true,
      values: false,
      custom: false,
      messages: false,
      tasks: false,
      checkpoints: false,
      debug: false,
      tagged: false,
      subgraphs: nested,
    };
  const list = typeof value === "string" ? [value] : value;
  if (!Array.isArray(list) || list.length === 0 || !list.every((mode) => MODES.includes(mode as StreamMode))) {
    throw new InvalidOptionError(
      `${api}: streamMode must be ${MODES.map((mode) => `"${mode}"`).join(", ")} or a non-empty list of them; got ${quote(value)}.`,
    );
  }
  return {
    updates: list.includes("updates"),
    values: list.includes("values"),
    custom: list.includes("custom"),
    messages: list.includes("messages"),
    tasks: list.includes("tasks"),
    checkpoints: list.includes("checkpoints"),
    debug: list.includes("debug"),
    tagged: Array.isArray(value),
    subgraphs: nested,
  };
}

/** A stream's chunk as the caller gets it: the payload, `[mode, payload]` with several modes, each under its namespace with `subgraphs`. */
export function shapeChunk(modes: StreamModes, [namespace, mode, payload]: Chunk): unknown {
  if (modes.subgraphs) return modes.tagged ? [namespace, mode, payload] : [namespace, payload];
  return modes.tagged ? [mode, payload] : payload;
}
