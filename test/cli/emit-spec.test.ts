/** `tsg check GRAPH --emit-spec FILE.ts`: the spec as a TypeScript module, never over a file without --force. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { exampleSpec } from "../../src/cli/graph-source.js";
import { runCli } from "../../src/cli/run-cli.js";
import { specModuleText } from "../../src/cli/spec-module.js";

const dir = mkdtempSync(join(tmpdir(), "tsg-emit-spec-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fixtures = relative(process.cwd(), join(import.meta.dirname, "fixtures"));
const module = (file: string, name: string) => `./${join(fixtures, file)}#${name}`;

async function tsg(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await runCli(argv, { stdout: { write: (t: string) => (out += t) }, stderr: { write: (t: string) => (err += t) } });
  return { code, out, err };
}

describe("tsg check --emit-spec", () => {
  it("writes the spec as a module whose spec, default export and stateSchema read back as the graph's", async () => {
    const file = join(dir, "report.v1.spec.ts");
    const { code, out } = await tsg("check", "report", "--emit-spec", file);
    expect(code).toBe(0);
    expect(out).toMatch(/report: valid \(6 nodes\)[\s\S]*report\.v1\.spec\.ts: written \(the spec, as const\)\n$/);
    const text = readFileSync(file, "utf8");
    expect(text.split("\n")[0]).toBe(
      `// Written by \`tsg check report --emit-spec ${file}\`: the graph's spec as it was then, \`as const\`, so a newer version's code`,
    );
    expect(text).toContain("} as const;\n");
    const emitted = (await import(file)) as { spec: unknown; default: unknown; stateSchema: unknown };
    expect(emitted.spec).toEqual(exampleSpec("report"));
    expect(emitted.default).toBe(emitted.spec);
    expect(emitted.stateSchema).toBeNull();
  });

  it("writes the state's JSON Schema when the graph has one", async () => {
    const file = join(dir, "ticket.spec.ts");
    expect((await tsg("check", module("schema-graph.ts", "ticket"), "--emit-spec", file)).code).toBe(0);
    const emitted = (await import(file)) as { stateSchema: unknown };
    expect(emitted.stateSchema).toMatchObject({ type: "object", properties: { amount: { type: "number" } } });
  });

  it("never overwrites a file without --force, and overwrites it with --force", async () => {
    const file = join(dir, "edited.spec.ts");
    writeFileSync(file, "// my edits\n");
    const refused = await tsg("check", "report", "--emit-spec", file);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain(
      "edited.spec.ts exists (it may hold your edits); choose another --emit-spec FILE, or pass --force to overwrite it.",
    );
    expect(readFileSync(file, "utf8")).toBe("// my edits\n");
    expect((await tsg("check", "report", "--emit-spec", file, "--force")).code).toBe(0);
    expect(readFileSync(file, "utf8")).toContain("export const spec = {");
  });

  it.each([
    ["a missing directory", () => join(dir, "no-such-dir", "v1.spec.ts"), "its directory does not exist"],
    [
      "a directory",
      () => {
        const path = join(dir, "a-directory");
        mkdirSync(path, { recursive: true });
        return path;
      },
      "it is a directory",
    ],
  ])("refuses a path that cannot be written (%s): exit 2, saying why", async (_what, pathOf, reason) => {
    const { code, err } = await tsg("check", "report", "--emit-spec", pathOf(), "--force");
    expect(code).toBe(2);
    expect(err).toMatch(
      new RegExp(`^tsg check: --emit-spec: cannot write .* ${reason}\\. Choose a path in a directory you can write to\\.\\n`),
    );
  });

  it("writes nothing for a graph with problems, exit 1", async () => {
    const file = join(dir, "draft.spec.ts");
    const { code } = await tsg("check", module("graphs.mjs", "draft"), "--emit-spec", file);
    expect(code).toBe(1);
    expect(() => readFileSync(file)).toThrow(/ENOENT/);
  });

  it("keeps stdout pure JSON with --json, which now carries the spec", async () => {
    const file = join(dir, "json.spec.ts");
    const { code, out } = await tsg("check", "research", "--json", "--emit-spec", file);
    expect(code).toBe(0);
    expect((JSON.parse(out) as { spec: unknown }).spec).toEqual(exampleSpec("research"));
  });

  it("keeps a path with a line break on the header's one line", () => {
    const text = specModuleText({
      spec: exampleSpec("research"),
      stateSchema: null,
      command: "tsg check research --emit-spec a\nb\u2028.ts",
    });
    expect(text.split("\n")[0]).toContain("a\\nb\\u2028.ts");
  });

  it("test/types/fixtures/report.spec.ts (what the type test imports) is what tsg check report --emit-spec writes today", () => {
    const path = "test/types/fixtures/report.spec.ts";
    const expected = specModuleText({ spec: exampleSpec("report"), stateSchema: null, command: `tsg check report --emit-spec ${path}` });
    // The fixture's one extra line keeps biome from reformatting it, so it stays byte for byte what tsg writes.
    const ignoreFormat =
      "// biome-ignore-all format: written by tsg check --emit-spec, compared byte for byte by test/cli/emit-spec.test.ts";
    expect(readFileSync(path, "utf8")).toBe(`${ignoreFormat}\n${expected}`);
  });
});
