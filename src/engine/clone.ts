/**
 * Isolation by copy. State is JSON-shaped in practice, so a purpose-built recursive copy of plain
 * objects and arrays is several times faster than `structuredClone` (measured in bench/). The rule for
 * everything else:
 * - what `structuredClone` copies natively (Date, RegExp, Map, Set, ArrayBuffer, typed arrays, boxed
 *   primitives) is deep-copied by it;
 * - functions, class instances (a client object, a compiled graph) and native values `structuredClone`
 *   refuses (a Map of functions) are shared by reference: they reach the node, the final state and the
 *   steps as they are, not isolated;
 * - arrays keep their holes; symbol keys, non-enumerable properties and an array's extra properties are
 *   dropped; a getter is read once and copied as its value.
 * The copy is depth-guarded: a cycle, or nesting deeper than {@link MAX_COPY_DEPTH}, is a coded error
 * naming the path (never a stack overflow).
 */
import { describeValue, memberPath, messageOf } from "../_describe.js";
import { invalidArgument } from "../errors.js";

const objectProto = Object.prototype;

/** How deeply a state may nest: far beyond JSON-shaped data, and well inside the stack. */
export const MAX_COPY_DEPTH = 1000;

/** The prototypes of the values `structuredClone` copies faithfully (exact prototypes: a subclass is shared). */
const structuredPrototypes = new Set<unknown>([
  Date.prototype,
  RegExp.prototype,
  Map.prototype,
  Set.prototype,
  ArrayBuffer.prototype,
  Number.prototype,
  String.prototype,
  Boolean.prototype,
  BigInt.prototype,
  ...[
    Int8Array,
    Uint8Array,
    Uint8ClampedArray,
    Int16Array,
    Uint16Array,
    Int32Array,
    Uint32Array,
    Float32Array,
    Float64Array,
    BigInt64Array,
    BigUint64Array,
    DataView,
  ].map((view) => view.prototype),
]);

/**
 * Whether a value is a plain object: `{}` or `Object.create(null)`, not an array, a Date or a class instance.
 *
 * @example
 * ```ts
 * isPlainObject({ a: 1 }); // true
 * isPlainObject(new Date()); // false
 * ```
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === objectProto || proto === null;
}

/**
 * A deep copy that shares nothing mutable with its source, except what cannot be copied (functions,
 * class instances: shared by reference). Throws `InvalidOptionError` (`INVALID_ARGUMENT`) naming the
 * path of a cycle, of nesting deeper than {@link MAX_COPY_DEPTH}, or of a value that cannot be read.
 *
 * @example
 * ```ts
 * const copy = cloneState({ rows: [{ city: "Tokyo" }] });
 * ```
 */
export function cloneState<T>(value: T): T {
  try {
    return copy(value, 0) as T;
  } catch (error) {
    throw invalidArgument(`cloneState: ${copyFailureMessage(value, "value", error)}`, { cause: error });
  }
}

/**
 * Why `value` cannot be copied, as `"<path> <reason>"` (`input.a.b contains a cycle back to input`),
 * for the engine's own messages. Call it after a copy failed: it walks the value again, without
 * recursion, to find the place.
 */
export function copyFailureMessage(value: unknown, root: string, error: unknown): string {
  const problem = findCopyProblem(value, root);
  return problem === undefined ? `${root} cannot be copied: ${messageOf(error)}` : `${clipPath(problem.path)} ${problem.reason}`;
}

/** A path of a thousand levels is cut in its middle: its start and its end say where it is. */
function clipPath(path: string): string {
  return path.length <= 200 ? path : `${path.slice(0, 100)}…${path.slice(-100)}`;
}

/** Where a value cannot be copied, and why. */
export interface CopyProblem {
  readonly path: string;
  readonly reason: string;
  /** `unreadable`: reading the value threw (a revoked Proxy, a throwing trap or getter). */
  readonly kind: "cycle" | "depth" | "unreadable";
}

/**
 * The first place under `value` that the copy cannot handle: a cycle, nesting deeper than
 * {@link MAX_COPY_DEPTH}, or a property that throws when read (a getter, a revoked Proxy). Iterative,
 * so it works where the copy ran out of room.
 */
export function findCopyProblem(value: unknown, root: string): CopyProblem | undefined {
  interface Frame {
    readonly value: object;
    readonly path: string;
    readonly depth: number;
    readonly keys: readonly string[];
    next: number;
  }
  const ancestors = new Map<object, string>();
  const stack: Frame[] = [];
  const enter = (item: unknown, path: string, depth: number): CopyProblem | undefined => {
    if (typeof item !== "object" || item === null) return undefined;
    const earlier = ancestors.get(item);
    if (earlier !== undefined)
      return { path, reason: `contains a cycle (it leads back to ${earlier}); a state must be a tree`, kind: "cycle" };
    if (depth > MAX_COPY_DEPTH) return { path, reason: `nests deeper than ${MAX_COPY_DEPTH} levels; flatten the state`, kind: "depth" };
    let keys: readonly string[];
    try {
      if (!copiesChildren(item)) return undefined;
      keys = Object.keys(item);
    } catch (error) {
      return { path, reason: `cannot be inspected: ${messageOf(error)}`, kind: "unreadable" };
    }
    ancestors.set(item, path);
    stack.push({ value: item, path, depth, keys, next: 0 });
    return undefined;
  };
  try {
    const first = enter(value, root, 0);
    if (first !== undefined) return first;
    while (stack.length > 0) {
      const frame = stack[stack.length - 1] as Frame;
      if (frame.next >= frame.keys.length) {
        stack.pop();
        ancestors.delete(frame.value);
        continue;
      }
      const key = frame.keys[frame.next++] as string;
      const path = Array.isArray(frame.value) ? `${frame.path}[${key}]` : memberPath(frame.path, key);
      let child: unknown;
      try {
        child = (frame.value as Record<string, unknown>)[key];
      } catch (error) {
        return { path, reason: `cannot be read: ${messageOf(error)}`, kind: "unreadable" };
      }
      const found = enter(child, path, frame.depth + 1);
      if (found !== undefined) return found;
    }
  } catch (error) {
    const where = stack[stack.length - 1]?.path ?? root;
    return { path: where, reason: `cannot be inspected: ${messageOf(error)} (${describeValue(value)})`, kind: "unreadable" };
  }
  return undefined;
}

/** Whether the copy walks into a value (plain objects and arrays) rather than handing it whole to `structuredClone` or sharing it. */
function copiesChildren(value: object): boolean {
  if (Array.isArray(value)) return true;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === objectProto || proto === null;
}

/**
 * How `copy` unwinds from a cycle or a value nested deeper than {@link MAX_COPY_DEPTH}. It never reaches
 * a caller: `cloneState`, the one caller of `copy`, turns every failure into an `INVALID_ARGUMENT`
 * `InvalidOptionError` that names the place (this one only as its `cause`).
 */
class CopyTooDeep extends Error {
  override readonly name = "CopyTooDeep";
  constructor() {
    super(`nests deeper than ${MAX_COPY_DEPTH} levels`);
  }
}

function copy(value: unknown, depth: number): unknown {
  if (typeof value !== "object" || value === null) return value;
  // A cycle or a very deep value: stop long before the stack does; cloneState finds the path.
  if (depth > MAX_COPY_DEPTH) throw new CopyTooDeep();
  if (Array.isArray(value)) {
    const length = value.length;
    const out = new Array<unknown>(length);
    for (let i = 0; i < length; i++) {
      const item = value[i];
      // Keep holes: `undefined` is copied only where the source has an element.
      if (item !== undefined || i in value) out[i] = copy(item, depth + 1);
    }
    return out;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto === objectProto) {
    const out: Record<string, unknown> = {};
    for (const key in value) {
      // An own "__proto__" key (JSON.parse makes them) must stay data, never become the prototype.
      if (key === "__proto__") defineData(out, key, copy((value as Record<string, unknown>)[key], depth + 1));
      else out[key] = copy((value as Record<string, unknown>)[key], depth + 1);
    }
    return out;
  }
  if (proto === null) {
    const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (const key of Object.keys(value)) out[key] = copy((value as Record<string, unknown>)[key], depth + 1);
    return out;
  }
  if (!structuredPrototypes.has(proto)) return value;
  try {
    return structuredClone(value);
  } catch {
    // A Map or Set holding functions or class instances: shared, like them.
    return value;
  }
}

function defineData(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}
