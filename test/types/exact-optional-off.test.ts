/**
 * `undefined` for a required field is a compile error with and without `exactOptionalPropertyTypes`
 * (issue 35 §2): the type tests run with it on (this project's tsconfig), so this compiles a fixture with
 * it off, on TS 6 and TS 7, and reads which lines fail. Lines marked `// ✗` must fail (with the message
 * naming the field), every other line must compile.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = process.cwd();
const work = join(root, "node_modules", ".cache", `exact-optional-off-${process.pid}`);
const compilers = {
  "TS 6": join(root, "node_modules/typescript/bin/tsc"),
  "TS 7": join(root, "node_modules/typescript7/bin/tsc"),
} as const;

const FIXTURE = `import { defineGraph, END, START, StateGraph } from "../../../src/index.js";
interface S { count: number; note?: string; label: string | undefined }
declare const lookup: Record<string, { n: number } | undefined>;
declare const flag: boolean;
const base = new StateGraph<S>();
base.addNode("a", () => ({ count: undefined })); // ✗ count
base.addNode("b", () => ({ count: lookup["k"]?.n })); // ✗ count
base.addNode("c", async () => ({ count: flag ? 1 : undefined })); // ✗ count
defineGraph<S>()({ nodes: { d: () => ({ count: lookup["k"]?.n }) }, edges: [[START, "d"], ["d", END]] }); // ✗ count
base.addNode("e", () => ({ count: lookup["k"]?.n ?? 0 }));
base.addNode("f", () => ({ note: undefined, label: undefined }));
base.addNode("g", (s): Partial<S> => ({ count: s.count }));
base.addNode("h", () => (flag ? { count: 1 } : {}));
`;

/** compiler → the fixture's lines (1-based) with an error, and the text of each line's first error. */
const errors = new Map<string, Map<number, string>>();

beforeAll(() => {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  writeFileSync(join(work, "fixture.ts"), FIXTURE);
  writeFileSync(
    join(work, "tsconfig.json"),
    JSON.stringify({ extends: "../../../tsconfig.json", compilerOptions: { exactOptionalPropertyTypes: false }, include: [], files: ["fixture.ts"] }),
  );
  for (const [name, tsc] of Object.entries(compilers)) {
    const run = spawnSync(process.execPath, [tsc, "-p", ".", "--pretty", "false"], { cwd: work, encoding: "utf8" });
    const byLine = new Map<number, string>();
    for (const line of run.stdout.split("\n")) {
      const m = /^fixture\.ts\((\d+),\d+\): (error TS\d+: .*)$/.exec(line);
      if (m !== null && !byLine.has(Number(m[1]))) byLine.set(Number(m[1]), (m[2] as string).replaceAll('\\"', '"'));
    }
    errors.set(name, byLine);
  }
}, 180_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe.each(Object.keys(compilers))("exactOptionalPropertyTypes off, on %s", (compiler) => {
  const lines = FIXTURE.split("\n").map((text, i) => ({ text, line: i + 1 }));
  it.each(lines.filter(({ text }) => text.includes("// ✗")))("line $line is refused, naming the field", ({ line }) => {
    expect(errors.get(compiler)?.get(line)).toContain('can return undefined for "count", which the state requires');
  });
  it("every other line compiles", () => {
    const failing = [...(errors.get(compiler)?.keys() ?? [])].filter((line) => !lines[line - 1]?.text.includes("// ✗"));
    expect(failing).toEqual([]);
  });
});
