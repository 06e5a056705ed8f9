/** Internal: how error messages of the report example show a bad value. */
export function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return `${typeof value} ${String(value)}`;
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return `an array ${safeJson(value)}`;
  return typeof value === "object" ? "an object" : typeof value;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return "(not JSON)";
  }
}
