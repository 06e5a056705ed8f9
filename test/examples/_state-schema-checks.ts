/** Checks the report and agent schema tests share: an edit refused on a thread, and the schema's JSON Schema. */
import { expect } from "vitest";
import { type CompiledGraph, type StandardSchemaV1, stateJsonSchemaOf, stateSchemaOf } from "../../src/index.js";
import { MemoryCheckpointer } from "../../src/persistence/index.js";

/** After `run` stored thread "t", `edit` is refused with INVALID_STATE naming `issue`, and the checkpoint is unchanged. */
export async function expectEditRefused<S extends object>(
  graph: CompiledGraph<S>,
  run: (checkpointer: MemoryCheckpointer) => Promise<unknown>,
  edit: Partial<S>,
  issue: string,
): Promise<void> {
  const checkpointer = new MemoryCheckpointer();
  await run(checkpointer);
  const before = await graph.getState("t", { checkpointer });
  const error = await graph.updateState("t", edit, { checkpointer }).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toMatchObject({ code: "INVALID_STATE" });
  expect(String((error as Error).message)).toContain(issue);
  expect(await graph.getState("t", { checkpointer })).toEqual(before);
}

/** The graph's schema is `schema`, and its JSON Schema lists exactly `fields`, none other allowed. */
export function expectSchemaFields(graph: CompiledGraph<object>, schema: StandardSchemaV1, fields: readonly string[]): void {
  expect(stateSchemaOf(graph)).toBe(schema);
  const json = stateJsonSchemaOf(graph);
  expect(json).toMatchObject({ type: "object", additionalProperties: false, required: [...fields] });
  expect(Object.keys((json as { properties: object }).properties)).toEqual([...fields]);
  expect(graph.spec.fields).toEqual([...fields]);
}
