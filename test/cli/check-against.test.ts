/**
 * `tsg check NEW --against OLD` on the report example: after a node rename, exactly the resume points that
 * need a mapping (exit 3); with the mapping, exit 0. OLD is an --emit-spec module or a --json output.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/run-cli.js";

const dir = mkdtempSync(join(tmpdir(), "tsg-against-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const v1 = join(dir, "report.v1.spec.ts");
const v1Json = join(dir, "report.v1.json");
const v2 = `./${join(relative(process.cwd(), join(import.meta.dirname, "fixtures")), "report-v2.ts")}#graph`;

async function tsg(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await runCli(argv, { stdout: { write: (t: string) => (out += t) }, stderr: { write: (t: string) => (err += t) } });
  return { code, out, err };
}

beforeAll(async () => {
  expect((await tsg("check", "report", "--emit-spec", v1)).code).toBe(0);
  const json = await tsg("check", "report", "--json");
  writeFileSync(v1Json, json.out);
});

const NOTE =
  "  (state field types cannot be compared: neither version has a state JSON Schema (declare the state with a schema, e.g. stateGraph(z.object({ … }))).)";

describe("tsg check NEW --against OLD", () => {
  it.each([
    ["an --emit-spec module", () => v1],
    ["a --json output", () => v1Json],
  ])("after a rename, lists exactly the resume points that need a mapping, exit 3 (OLD: %s)", async (_what, old) => {
    const { code, out, err } = await tsg("check", v2, "--against", old());
    expect({ code, err }).toEqual({ code: 3, err: "" });
    const fix =
      'map it to the node that takes over: nodes: { "publish": "<new node>" } (the new graph\'s nodes there: "collect", "write_draft", "check_draft", "revise_draft", "release", "hold").';
    expect(out.split("\n")).toEqual([
      `${v2}: valid (6 nodes)`,
      '  - unbounded cycle (only recursionLimit stops it): "check_draft", "revise_draft"',
      `against ${old()}: 3 resume points (or state fields) of the old version cannot continue on this graph:`,
      `  - before:publish: node "publish" is not in the new graph; ${fix}`,
      `  - interrupt:publish: node "publish" is not in the new graph; ${fix}`,
      `  - after:publish: node "publish" is not in the new graph; ${fix}`,
      NOTE,
      "",
    ]);
  });

  it("with the mapping (--nodes publish=release), exit 0", async () => {
    const { code, out } = await tsg("check", v2, "--against", v1, "--nodes", "publish=release");
    expect(code).toBe(0);
    expect(out).toContain(`against ${v1}: every resume point of the old version (18) can continue on this graph\n${NOTE}\n`);
  });

  it("adds resumability to --json", async () => {
    const { code, out } = await tsg("check", v2, "--against", v1Json, "--json");
    expect(code).toBe(3);
    const report = JSON.parse(out) as {
      valid: boolean;
      resumability: { against: string; problems: { point: string }[]; stateFields: string };
    };
    expect(report.valid).toBe(true);
    expect(report.resumability.against).toBe(v1Json);
    expect(report.resumability.problems.map((problem) => problem.point)).toEqual(["before:publish", "interrupt:publish", "after:publish"]);
    expect(report.resumability.stateFields).toBe("field names");
    expect(JSON.parse((await tsg("check", "report", "--json")).out)).not.toHaveProperty("resumability");
  });

  it.each([
    [["--nodes", "publish"], 'tsg check: --nodes takes old=new pairs, comma-separated (publish=release,hold=publish); got "publish".'],
    [["--nodes", "publsh=release"], 'tsg check: --nodes: names "publsh", which the old version does not have;'],
  ])("a bad --nodes %j is exit 2 naming it", async (flags, message) => {
    const { code, err } = await tsg("check", v2, "--against", v1, ...flags);
    expect(code).toBe(2);
    expect(err.split("\n")[0]).toContain(message);
  });

  it("an OLD that is no spec is exit 2", async () => {
    const bad = join(dir, "bad.json");
    writeFileSync(bad, JSON.stringify({ graph: "x", spec: null }));
    const { code, err } = await tsg("check", v2, "--against", bad);
    expect(code).toBe(2);
    expect(err).toContain("its spec is null (tsg check found problems in that graph)");
    expect((await tsg("check", v2, "--against", join(dir, "missing.json"))).err).toContain("cannot be read as JSON: no such file.");
  });
});
