/**
 * The JSON check a checkpointer needs: a value JSON would drop or change (a function, a class
 * instance, `undefined` inside an array, `NaN`) is an error that names it, raised before anything
 * is written. `undefined` object properties are allowed: JSON drops them, and the engine reads a
 * missing field and an `undefined` one alike.
 */
import { MAX_COPY_DEPTH } from "../clone.js";
import { NotSerializableError } from "./errors.js";

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
 * checks its input before it copies it.
 */
export function findNonJson(value: unknown, path: string): JsonProblem | undefined {
  return findBelow(value, path, 0);
}

function findBelow(value: unknown, path: string, depth: number): JsonProblem | undefined {
  switch (typeof value) {
    case "string":
    case "boolean":
      return undefined;
    case "number":
      return Number.isFinite(value) ? undefined : { path, what: String(value), fix: "store null or a finite number instead." };
    case "undefined":
      return { path, what: "undefined inside an array", fix: "store null instead." };
    case "function":
      return { path, what: "a function", fix: "keep functions out of the state (a node can close over them)." };
    case "bigint":
    case "symbol":
      return { path, what: `a ${typeof value}`, fix: "store a string or a number instead." };
  }
  if (value === null) return undefined;
  if (depth >= MAX_COPY_DEPTH) {
    return {
      path,
      what: `nested deeper than ${MAX_COPY_DEPTH} levels (or part of a cycle)`,
      fix: "flatten the state, and store references between objects as ids.",
    };
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findBelow(value[i], `${path}[${i}]`, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== objectProto && proto !== null) {
    const name = (value as object).constructor?.name ?? "an unknown class";
    return {
      path,
      what: `an instance of ${name}`,
      fix: "store plain data instead (a Date as its toISOString(), a Map as an object or entries).",
    };
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const item = record[key];
    if (item === undefined) continue;
    const found = findBelow(item, childPath(path, key), depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}
