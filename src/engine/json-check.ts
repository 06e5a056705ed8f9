/**
 * The JSON check a checkpointer needs: a value JSON would drop or change (a function, a class
 * instance, `undefined` inside an array, `NaN`) is an error that names it, raised before anything
 * is written. `undefined` object properties are allowed: JSON drops them, and the engine reads a
 * missing field and an `undefined` one alike.
 */
import { MAX_COPY_DEPTH } from "./clone.js";
import { NotSerializableError } from "./persistence-errors.js";

const objectProto = Object.prototype;

/** A value JSON cannot store faithfully: where it is, what it is, and how to fix it. */
export interface JsonProblem {
  readonly path: string;
  readonly what: string;
  readonly fix: string;
}

/**
 * Throws {@link NotSerializableError} for the first value under `value` that JSON cannot store
 * faithfully, naming it with a path that starts at `root`, such as `input.draft.rows[1]`.
 *
 * @example
 * ```ts
 * checkJson({ total: NaN }, "input", "invoke"); // NotSerializableError: invoke: cannot checkpoint "input.total": it is NaN. …
 * ```
 */
export function checkJson(value: unknown, root: string, api: string): void {
  const problem = findNonJson(value, root);
  if (problem !== undefined) throw notSerializable(api, problem, "");
}

/** The error for a problem; `context` says more about the value, e.g. ` (written by "draft")`. */
export function notSerializable(api: string, problem: JsonProblem, context: string): NotSerializableError {
  return new NotSerializableError(
    `${api}: cannot checkpoint "${problem.path}"${context}: it is ${problem.what}. A checkpointer stores JSON: ${problem.fix}`,
    problem.path,
  );
}

/** `path.key`, or `path["odd key"]` when the key is not an identifier. */
export function childPath(path: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

/**
 * The first non-JSON value under `value`, with its path, what it is, and how to fix it. Nesting past
 * {@link MAX_COPY_DEPTH} (a cycle included) is a problem too, so a hostile input is reported, never a
 * stack overflow: the same bound the engine's copy applies, checked here first because a threaded run
 * checks its input before it copies it. With `key`, the path starts at `path.key` (built only when
 * there is a problem: the check of a checkpoint's changed fields runs every superstep).
 */
export function findNonJson(value: unknown, path: string, key?: string): JsonProblem | undefined {
  const found = findBelow(value, 0);
  if (found === undefined) return undefined;
  // The path is built only for a value that fails, from the keys collected on the way back up.
  let at = key === undefined ? path : childPath(path, key);
  for (let index = found.keys.length - 1; index >= 0; index--) {
    const step = found.keys[index] as string | number;
    at = typeof step === "number" ? `${at}[${step}]` : childPath(at, step);
  }
  return { path: at, what: found.what, fix: found.fix };
}

/** A problem found under a value: what and how to fix it, and the keys leading to it, innermost first. */
interface Found {
  readonly what: string;
  readonly fix: string;
  readonly keys: (string | number)[];
}

function problem(what: string, fix: string): Found {
  return { what, fix, keys: [] };
}

function findBelow(value: unknown, depth: number): Found | undefined {
  switch (typeof value) {
    case "string":
    case "boolean":
      return undefined;
    case "number":
      return Number.isFinite(value) ? undefined : problem(String(value), "store null or a finite number instead.");
    case "undefined":
      return problem("undefined inside an array", "store null instead.");
    case "function":
      return problem("a function", "keep functions out of the state (a node can close over them).");
    case "bigint":
    case "symbol":
      return problem(`a ${typeof value}`, "store a string or a number instead.");
  }
  if (value === null) return undefined;
  if (depth >= MAX_COPY_DEPTH) {
    return problem(
      `nested deeper than ${MAX_COPY_DEPTH} levels (or part of a cycle)`,
      "flatten the state, and store references between objects as ids.",
    );
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findBelow(value[i], depth + 1);
      if (found === undefined) continue;
      found.keys.push(i);
      return found;
    }
    return undefined;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== objectProto && proto !== null) {
    const name = (value as object).constructor?.name ?? "an unknown class";
    return problem(`an instance of ${name}`, "store plain data instead (a Date as its toISOString(), a Map as an object or entries).");
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const item = record[key];
    if (item === undefined) continue;
    const found = findBelow(item, depth + 1);
    if (found === undefined) continue;
    found.keys.push(key);
    return found;
  }
  return undefined;
}
