/**
 * `Checkpointer.listThreads`, the one rule every store follows: the top-level threads only (a
 * subgraph's own thread, `thread␟namespace`, belongs to its parent's), sorted by UTF-8 bytes, which is
 * the order SQLite's binary collation and PostgreSQL's `COLLATE "C"` give.
 */
import { NAMESPACE_SEPARATOR } from "../engine/store-rules.js";

/** SQLite's query: binary collation is UTF-8 byte order. */
export const SQLITE_THREADS_SQL = "SELECT DISTINCT thread_id FROM tsg_checkpoints WHERE instr(thread_id, char(31)) = 0 ORDER BY thread_id";

/**
 * The top-level thread ids among `ids`, without repeats, sorted by UTF-8 bytes (by code point).
 *
 * @example
 * ```ts
 * topLevelThreads(["b", "a", "a\u001fsub:1"]); // ["a", "b"]
 * ```
 */
export function topLevelThreads(ids: Iterable<string>): string[] {
  const unique = new Set([...ids].filter((id) => !id.includes(NAMESPACE_SEPARATOR)));
  return [...unique].sort(byCodePoint);
}

/** UTF-8 byte order: code point order (UTF-16's order differs above U+FFFF). */
function byCodePoint(a: string, b: string): number {
  const left = [...a].map((char) => char.codePointAt(0) ?? 0);
  const right = [...b].map((char) => char.codePointAt(0) ?? 0);
  for (let index = 0; index < Math.min(left.length, right.length); index++) {
    const difference = (left[index] ?? 0) - (right[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return left.length - right.length;
}
