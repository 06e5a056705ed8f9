/** What changed between two checkpoints' states: one entry per changed path, for the page's diff view. */

/** One change: a field (or a nested path) added, removed or changed. */
export interface StateChange {
  /** `draft.notice`, `events[5]`: where the change is. */
  readonly path: string;
  readonly kind: "added" | "removed" | "changed";
  readonly before?: unknown;
  readonly after?: unknown;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The changes from `before` to `after`, depth first, in key order. Objects are compared field by field,
 * arrays element by element (an appended element is `added`); anything else by value.
 *
 * @example
 * ```ts
 * diffStates({ n: 1, log: ["a"] }, { n: 2, log: ["a", "b"] });
 * // [{ path: "log[1]", kind: "added", after: "b" }, { path: "n", kind: "changed", before: 1, after: 2 }]
 * ```
 */
export function diffStates(before: unknown, after: unknown, path = ""): StateChange[] {
  if (isRecord(before) && isRecord(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    return keys.flatMap((key) => {
      const at = path === "" ? key : `${path}.${key}`;
      if (!Object.hasOwn(after, key)) return [{ path: at, kind: "removed", before: before[key] } satisfies StateChange];
      if (!Object.hasOwn(before, key)) return [{ path: at, kind: "added", after: after[key] } satisfies StateChange];
      return diffStates(before[key], after[key], at);
    });
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const changes: StateChange[] = [];
    for (let index = 0; index < Math.max(before.length, after.length); index += 1) {
      const at = `${path}[${index}]`;
      if (index >= after.length) changes.push({ path: at, kind: "removed", before: before[index] });
      else if (index >= before.length) changes.push({ path: at, kind: "added", after: after[index] });
      else changes.push(...diffStates(before[index], after[index], at));
    }
    return changes;
  }
  return sameJson(before, after) ? [] : [{ path: path === "" ? "(state)" : path, kind: "changed", before, after }];
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
