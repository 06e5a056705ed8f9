/**
 * A user's module is the user's: what its exports throw when tsg reads them (a getter, a Proxy's trap,
 * compile()) is reported as the module's fault, exit 2 with the module, the export and the message,
 * never as a bug of tsg (exit 70). `tsg` runs as a user runs it: dist/cli/main.js in a child process.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { call } from "../inspect/_client.js";
import { assertBuilt, runTsg, startTsgInspect } from "./_child.js";

const MODULE = "./test/cli/fixtures/hostile.mjs";
beforeAll(() => assertBuilt());

const faults = [
  ["compileGetter", "reading its compile", "compile getter failed"],
  ["specGetter", "reading its spec", "spec getter failed"],
  ["nodesGetter", "reading its nodes", "nodes getter failed"],
  ["compiledSpecGetter", "reading the compiled graph's spec", "compiled spec getter failed"],
  ["trap", "reading its compile", "get trap failed"],
  ["revoked", "reading its compile", "Cannot perform 'get' on a proxy that has been revoked"],
  ["keysTrap", "copying its spec", "ownKeys trap failed"],
  ["thrownProxy", "calling its compile()", "a value that cannot be printed was thrown"],
] as const;

describe.each([
  ["check", faults],
  ["diagram", faults.filter(([name]) => name === "specGetter" || name === "trap")],
  ["paths", faults.filter(([name]) => name === "nodesGetter" || name === "revoked")],
] as const)("tsg %s on an export that throws when read", (command, cases) => {
  it.each(cases)("%s: exit 2, naming the module, the export and the message", async (name, step, message) => {
    const { code, stdout, stderr } = await runTsg([command, `${MODULE}#${name}`]);
    expect({ code, stdout }).toEqual({ code: 2, stdout: "" });
    expect(stderr).toBe(
      `tsg ${command}: the export "${name}" of the module ${MODULE} threw while tsg was ${step}: ${message}\n` +
        `Run \`tsg ${command} --help\` for the options.\n`,
    );
  });
});

it("a spec nested too deep to copy is refused as invalid (exit 1, the nesting limit named), not as a fault of the module", async () => {
  const { code, stdout, stderr } = await runTsg(["check", `${MODULE}#deepSubgraphs`]);
  expect({ code, stderr }).toEqual({ code: 1, stderr: "" });
  expect(stdout).toMatch(/^\.\/test\/cli\/fixtures\/hostile\.mjs#deepSubgraphs: \d+ problems?\n/);
  expect(stdout).toContain("nests subgraphs more than 64 levels deep");
  expect(stdout.length).toBeLessThan(20_000);
  const json = await runTsg(["check", `${MODULE}#deepSubgraphs`, "--json"]);
  expect(json.code).toBe(1);
  expect(JSON.parse(json.stdout)).toMatchObject({
    valid: false,
    problems: expect.arrayContaining([expect.objectContaining({ code: "INVALID_SPEC" })]),
  });
});

it("the same module's valid export still checks", async () => {
  expect(await runTsg(["check", `${MODULE}#valid`])).toMatchObject({
    code: 0,
    stdout: `${MODULE}#valid: valid (1 nodes, at most 1 superstep a run)\n`,
  });
});

describe("tsg inspect starts and shows the problem in the page", () => {
  let dir = "";
  afterEach(() => {
    if (dir !== "") rmSync(dir, { recursive: true, force: true });
    dir = "";
  });

  it("an export whose getter throws", async () => {
    const inspect = await startTsgInspect([`${MODULE}#specGetter`]);
    try {
      const problem = `the export "specGetter" of the module ${MODULE} threw while tsg was reading its spec: spec getter failed`;
      expect((await call(inspect.port, "GET", "/api/info")).json["graph"]).toEqual({ label: `${MODULE}#specGetter`, problem });
      expect(inspect.output().stderr).toBe(`tsg inspect: ${problem}\n`);
    } finally {
      expect(await inspect.stop()).toBe(0);
    }
  });

  it("a directory as --db", async () => {
    dir = mkdtempSync(join(tmpdir(), "tsg-inspect-dir-"));
    const inspect = await startTsgInspect(["report", "--db", dir]);
    try {
      const problem = `--db ${dir} is a directory; name a database file.`;
      expect((await call(inspect.port, "GET", "/api/info")).json["store"]).toEqual({ label: dir, writable: false, problem });
      expect(inspect.output().stderr).toBe(`tsg inspect: ${problem}\n`);
    } finally {
      expect(await inspect.stop()).toBe(0);
    }
  });
});
