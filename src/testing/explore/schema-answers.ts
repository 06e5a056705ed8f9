/**
 * Default answers for the interrupts a graph declares (`compile({ interrupts: [approval] })`): drawn
 * from each answer schema's JSON Schema (its input side: what a person sends), for the interrupts the
 * exploration's `answers` option does not cover.
 */
import type * as fc from "fast-check";
import { declaredInterruptsOf, type CompiledGraph, type DeclaredInterrupt } from "../../engine/index.js";
import { InvalidOptionError } from "../../errors.js";
import { jsonSchemaArbitrary } from "../_internals/json-schema-arbitrary.js";

/** The JSON Schema version asked of a schema library (the one the state schema's check asks for). */
const JSON_SCHEMA_TARGET = "draft-2020-12";

/**
 * An arbitrary per declared interrupt that has an answer schema and is not in `covered`, by name.
 * Throws `InvalidOptionError` for one whose schema offers no JSON Schema, or one the generator cannot
 * honour: the message asks for an explicit answers arbitrary.
 */
export function schemaAnswers(
  graph: CompiledGraph<object, string, object>,
  covered: ReadonlySet<string>,
): Map<string, fc.Arbitrary<unknown>> {
  const answers = new Map<string, fc.Arbitrary<unknown>>();
  for (const declared of declaredInterruptsOf(graph)) {
    if (covered.has(declared.interruptName) || declared.answerSchema === undefined) continue;
    answers.set(declared.interruptName, answerArbitrary(declared));
  }
  return answers;
}

function answerArbitrary(declared: DeclaredInterrupt): fc.Arbitrary<unknown> {
  const name = declared.interruptName;
  const props = declared.answerSchema?.["~standard"] as { vendor?: unknown; jsonSchema?: { input?: unknown } } | undefined;
  const fix = `Pass answers: { ${JSON.stringify(name)}: <a fast-check arbitrary of its answers> } to exploreGraph.`;
  const refuse = (why: string): never => {
    throw new InvalidOptionError(
      `exploreGraph: the answers of the interrupt "${name.slice(0, 80)}" cannot be drawn from its schema: ${why}. ${fix}`,
    );
  };
  const input = props?.jsonSchema?.input;
  if (typeof input !== "function") {
    return refuse(`its schema (${String(props?.vendor ?? "a Standard Schema")}) offers no JSON Schema (~standard.jsonSchema)`);
  }
  let jsonSchema: unknown;
  try {
    jsonSchema = (input as (options: { target: string }) => unknown)({ target: JSON_SCHEMA_TARGET });
  } catch (error) {
    return refuse(`its JSON Schema could not be made (${error instanceof Error ? error.message.slice(0, 200) : String(error)})`);
  }
  return jsonSchemaArbitrary(jsonSchema, (keyword, at) =>
    refuse(`its JSON Schema uses "${keyword}" at ${at === "" ? "the root" : at}, which the answer generator does not read`),
  );
}
