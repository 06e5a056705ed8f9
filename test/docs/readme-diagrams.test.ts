/**
 * The README's diagrams are the renderer's output for the example graphs, so they cannot rot.
 * After a change to a graph or to the renderer: UPDATE_README_DIAGRAMS=1 npx vitest run test/docs/readme-diagrams.test.ts
 */
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { DIAGRAM_GRAPHS, exampleSpec } from "../../src/cli/diagram.js";
import { toMermaid } from "../../src/render/mermaid.js";

const readmePath = resolve(import.meta.dirname, "../../README.md");
/** `<!-- diagram: NAME -->`, then a mermaid block. */
const DIAGRAM = /<!-- diagram: ([\w-]+) -->\n```mermaid\n([\s\S]*?)```\n/g;

function readmeDiagrams(text: string): Map<string, string> {
  return new Map([...text.matchAll(DIAGRAM)].map((match) => [match[1] as string, match[2] as string]));
}

describe("README diagrams", () => {
  if (process.env.UPDATE_README_DIAGRAMS === "1") {
    const text = readFileSync(readmePath, "utf8");
    const updated = text.replace(
      DIAGRAM,
      (_, name: string) =>
        `<!-- diagram: ${name} -->\n\`\`\`mermaid\n${toMermaid(exampleSpec(name as (typeof DIAGRAM_GRAPHS)[number]))}\`\`\`\n`,
    );
    if (updated !== text) writeFileSync(readmePath, updated);
  }
  const diagrams = readmeDiagrams(readFileSync(readmePath, "utf8"));

  it("embeds one diagram per example graph", () => {
    expect([...diagrams.keys()]).toEqual([...DIAGRAM_GRAPHS]);
  });

  it.each(DIAGRAM_GRAPHS)("the %s diagram is what toMermaid draws (UPDATE_README_DIAGRAMS=1 to regenerate)", (name) => {
    expect(diagrams.get(name)).toBe(toMermaid(exampleSpec(name)));
  });
});
