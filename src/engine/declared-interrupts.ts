/**
 * The in-node interrupts a graph declares (`compile({ interrupts: [approval] })`), read back: their
 * names and answer schemas. A node's `approval(payload)` call is code the graph cannot see; the
 * declaration is what lets a tool that answers pauses without a person (`exploreGraph`) find each
 * answer's schema. Kept in the graph's brand (`graph-brand.ts`), beside the state schema, so a graph
 * compiled by another copy of the library (a user's module that `tsg` loads) still shows them.
 */
import { describeValue, quote } from "../_describe.js";
import { InvalidOptionError } from "../errors.js";
import type { CompiledGraph } from "./compiled-graph.js";
import { graphBrandOf } from "./graph-brand.js";
import type { DeclaredInterrupt } from "./interrupt.js";
import { isStandardSchema } from "./kernel/state-check.js";

/**
 * The `interrupts` option, checked: a list of `defineInterrupt` values with distinct names. Throws
 * `InvalidOptionError` naming the first bad entry.
 */
export function checkDeclaredInterrupts(value: unknown, api: string): readonly DeclaredInterrupt[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    throw new InvalidOptionError(
      `${api}: interrupts must be a list of defineInterrupt(...) values, e.g. [approval]; got ${describeValue(value)}.`,
    );
  }
  const seen = new Map<string, unknown>();
  for (const entry of value as readonly unknown[]) {
    const name = (entry as { interruptName?: unknown } | null)?.interruptName;
    const schema = (entry as { answerSchema?: unknown } | null)?.answerSchema;
    if ((typeof entry !== "function" && typeof entry !== "object") || typeof name !== "string") {
      throw new InvalidOptionError(
        `${api}: interrupts must list defineInterrupt(...) values (each with an interruptName); got ${describeValue(entry)}.`,
      );
    }
    if (schema !== undefined && !isStandardSchema(schema)) {
      throw new InvalidOptionError(`${api}: the interrupt ${quote(name)} has an answerSchema that is not a Standard Schema.`);
    }
    if (seen.has(name) && seen.get(name) !== entry) {
      throw new InvalidOptionError(
        `${api}: interrupts declares two different interrupts named ${quote(name)}; a pending interrupt is known by its name, so give each its own.`,
      );
    }
    seen.set(name, entry);
  }
  return [...new Set(value as readonly DeclaredInterrupt[])];
}

/**
 * The in-node interrupts a graph was compiled with (`compile({ interrupts: [approval] })`), each with
 * its name and answer schema; empty for a graph that declares none. `exploreGraph` draws answers from
 * these schemas when you pass no `answers` for them.
 *
 * @example
 * ```ts
 * declaredInterruptsOf(graph).map((declared) => declared.interruptName); // ["approval"]
 * ```
 */
export function declaredInterruptsOf(graph: CompiledGraph<object, string, object>): readonly DeclaredInterrupt[] {
  return graphBrandOf(graph)?.interrupts ?? [];
}
