/**
 * How a graph's state fields changed between two versions, for `assertResumable`: from the states' JSON
 * Schemas when both versions have one (a type changed, a field removed, a required field added), else
 * from the specs' declared field names (a field removed), else not at all, and it says which.
 */
import type { GraphSpec } from "../spec.js";
import type { ResumeProblem } from "./resumability.js";

/** How far the state fields could be compared: what the two versions offered. */
export type StateComparison = "schemas" | "field names" | "none";

/** The changed fields, and how far they could be compared. */
export interface StateFieldChanges {
  readonly compared: StateComparison;
  /** Why the comparison went no further, when it did not compare schemas. */
  readonly note?: string;
  readonly problems: readonly ResumeProblem[];
}

/** A state's JSON Schema, as `stateJsonSchemaOf` gives it (or `tsg check --json` prints it). */
export type StateJsonSchema = Readonly<Record<string, unknown>>;

/**
 * The state fields a thread of the old version holds that the new version reads differently.
 *
 * @example
 * ```ts
 * stateFieldChanges({ spec: v1.spec, schema: v1Schema }, { spec: v2.spec, schema: v2Schema }).problems;
 * // [{ point: "field:amount", kind: "field", reason: 'the type of "amount" changed: …', fix: "declare a state migration …" }]
 * ```
 */
export function stateFieldChanges(
  before: { readonly spec: GraphSpec; readonly schema: StateJsonSchema | null },
  after: { readonly spec: GraphSpec; readonly schema: StateJsonSchema | null },
): StateFieldChanges {
  if (before.schema !== null && after.schema !== null) return { compared: "schemas", problems: schemaChanges(before.schema, after.schema) };
  const missing =
    before.schema === null && after.schema === null
      ? "neither version has a"
      : before.schema === null
        ? "the old version has no"
        : "the new version has no";
  const note = `state field types cannot be compared: ${missing} state JSON Schema (declare the state with a schema, e.g. stateGraph(z.object({ … })))`;
  if (before.spec.fields === undefined || after.spec.fields === undefined) {
    return { compared: "none", note: `${note}, and field names neither: a version declares no fields`, problems: [] };
  }
  const kept = new Set(after.spec.fields);
  return { compared: "field names", note, problems: before.spec.fields.filter((field) => !kept.has(field)).map(removed) };
}

function schemaChanges(before: StateJsonSchema, after: StateJsonSchema): ResumeProblem[] {
  const old = properties(before);
  const now = properties(after);
  const problems: ResumeProblem[] = [];
  for (const [field, type] of Object.entries(old)) {
    if (!Object.hasOwn(now, field)) problems.push(removed(field));
    else if (!sameJson(type, now[field])) {
      problems.push({
        point: `field:${field}`,
        kind: "field",
        reason: `the type of ${JSON.stringify(field)} changed: ${brief(type)} → ${brief(now[field])}`,
        fix: `declare a state migration that converts ${JSON.stringify(field)}`,
      });
    }
  }
  const required = Array.isArray(after["required"]) ? (after["required"] as unknown[]) : [];
  for (const field of Object.keys(now)) {
    if (Object.hasOwn(old, field) || !required.includes(field)) continue;
    problems.push({
      point: `field:${field}`,
      kind: "field",
      reason: `${JSON.stringify(field)} is a new required field: an old thread's state lacks it`,
      fix: `declare a state migration that sets ${JSON.stringify(field)}`,
    });
  }
  return problems;
}

function removed(field: string): ResumeProblem {
  return {
    point: `field:${field}`,
    kind: "field",
    reason: `${JSON.stringify(field)} is no longer a field: an old thread's state still holds it`,
    fix: `declare a state migration that drops (or moves) ${JSON.stringify(field)}`,
  };
}

function properties(schema: StateJsonSchema): Readonly<Record<string, unknown>> {
  const found = schema["properties"];
  return typeof found === "object" && found !== null && !Array.isArray(found) ? (found as Record<string, unknown>) : {};
}

/** Equal as JSON values, whatever the order of object keys. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  return keys.length === Object.keys(right).length && keys.every((key) => Object.hasOwn(right, key) && sameJson(left[key], right[key]));
}

/** A field's schema on one short line, for a message. */
function brief(schema: unknown): string {
  const text = JSON.stringify(schema) ?? "undefined";
  return text.length <= 120 ? text : `${text.slice(0, 119)}…`;
}
