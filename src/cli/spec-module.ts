/**
 * The TypeScript module `tsg check --emit-spec FILE.ts` writes: a graph's spec `as const`, so the code of a
 * newer version imports the old graph's node names as literal types (a JSON spec widens them to
 * `string`), and the state's JSON Schema when the graph has one, for `tsg check --against`.
 */
import type { GraphSpec } from "../index.js";

/** What a spec module is written from. */
export interface SpecModule {
  readonly spec: GraphSpec;
  /** The state's JSON Schema (`stateJsonSchemaOf`), or `null` for a graph declared without a schema. */
  readonly stateSchema: Readonly<Record<string, unknown>> | null;
  /** The command that wrote it, for the header. */
  readonly command: string;
}

/**
 * The module's text: a header naming the command that wrote it, `export const spec = { … } as const`,
 * `export const stateSchema`, and `spec` as the default export (what `tsg check`'s graph loader reads).
 *
 * @example
 * ```ts
 * writeFileSync("report.v1.spec.ts", specModuleText({ spec, stateSchema: null, command: "tsg check report --emit-spec report.v1.spec.ts" }));
 * ```
 */
export function specModuleText({ spec, stateSchema, command }: SpecModule): string {
  return [
    `// Written by \`${oneLine(command)}\`: the graph's spec as it was then, \`as const\`, so a newer version's code`,
    "// imports its node names as literal types and `tsg check NEW --against THIS_FILE` lists the resume points",
    "// of its paused threads that the new graph cannot take. Regenerate it rather than edit it.",
    `export const spec = ${JSON.stringify(spec, null, 2)} as const;`,
    "",
    "/** The state's JSON Schema when the graph was declared with a schema that offers one, else null. */",
    `export const stateSchema = ${stateSchema === null ? "null" : `${JSON.stringify(stateSchema, null, 2)} as const`};`,
    "",
    "export default spec;",
    "",
  ].join("\n");
}

/** `text` on one line: JSON's escapes for its control characters, and for the two line separators JSON leaves as they are. */
function oneLine(text: string): string {
  return JSON.stringify(text)
    .slice(1, -1)
    .replace(/[\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16)}`);
}
