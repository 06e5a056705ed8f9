/**
 * A graph from a user's module is compiled by the module's own copy of typed-state-graph (tsx loads the
 * sources; the built `tsg` is dist/): `instanceof` and WeakMaps of tsg's copy do not see it. tsg reads it
 * through its brand (`Symbol.for("typed-state-graph/graph")`): the migrations it declares
 * (`tsg check --against` without `--nodes`) and its state schema (`tsg check --json`, `tsg inspect`).
 * `tsg` runs as a user runs it: dist/cli/main.js in a child process.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { call } from "../inspect/_client.js";
import { assertBuilt, runTsg, startTsgInspect } from "./_child.js";

const REPORT_V2 = "./test/cli/fixtures/report-v2.ts";
const REPORT_V1 = "./test/types/fixtures/report.spec.ts";
const TICKET = "./test/cli/fixtures/schema-graph.ts#ticket";
beforeAll(() => assertBuilt());

describe("tsg check NEW --against OLD reads the migrations NEW's module declares", () => {
  it("a graph that declares the rename (migrateFrom(v1, { nodes: { publish: 'release' } })): exit 0 without --nodes", async () => {
    const { code, stdout, stderr } = await runTsg(["check", `${REPORT_V2}#migrated`, "--against", REPORT_V1], { deadlineMs: 60_000 });
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    expect(stdout).toContain(`against ${REPORT_V1}: every resume point of the old version (18) can continue on this graph`);
  });

  it("the same graph declaring nothing: exit 3, the renamed node's points listed", async () => {
    const { code, stdout } = await runTsg(["check", `${REPORT_V2}#graph`, "--against", REPORT_V1], { deadlineMs: 60_000 });
    expect(code).toBe(3);
    expect(stdout).toContain(`against ${REPORT_V1}: 3 resume points (or state fields) of the old version cannot continue on this graph:`);
  });

  it("--nodes still overrides what the graph declares", async () => {
    const { code, stdout } = await runTsg(["check", `${REPORT_V2}#migrated`, "--against", REPORT_V1, "--nodes", "hold=release"], {
      deadlineMs: 60_000,
    });
    expect(code).toBe(3);
    expect(stdout).toContain('  - before:publish: node "publish" is not in the new graph;');
  });
});

describe("a module graph's state schema", () => {
  it("tsg check --json prints its JSON Schema", async () => {
    const { code, stdout } = await runTsg(["check", TICKET, "--json"], { deadlineMs: 60_000 });
    expect(code).toBe(0);
    expect((JSON.parse(stdout) as { stateSchema: unknown }).stateSchema).toMatchObject({
      type: "object",
      properties: { amount: { type: "number" }, resolved: { type: "boolean" } },
    });
  });

  it("tsg inspect builds its input form from it", async () => {
    const inspect = await startTsgInspect([TICKET]);
    try {
      expect((await call(inspect.port, "GET", "/api/info")).json["graph"]).toMatchObject({
        inputSchema: { type: "object", properties: { amount: { type: "number" }, resolved: { type: "boolean" } } },
      });
    } finally {
      expect(await inspect.stop()).toBe(0);
    }
  });
});
