/**
 * A short, platform-neutral hash of a spec (FNV-1a over its JSON, keys sorted): what cache keys carry,
 * so a changed graph never reads an entry a different graph wrote. Not a security hash.
 */
import type { GraphSpec } from "../spec.js";

/** The spec's hash, as 8 hex digits. */
export function specHash(spec: GraphSpec): string {
  let hash = 0x811c9dc5;
  const text = canonical(spec);
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
