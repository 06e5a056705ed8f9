/**
 * Bad input around DBOS itself: a run before `DBOS.launch()` is `DBOS_NOT_LAUNCHED`, never DBOS's own
 * TypeError. (A Postgres that goes down mid-run is server-down.test.ts: DBOS 5 retries its system
 * database without end rather than fail, so the run waits until the server is back; see docs/deploy.md.)
 */
import { describe, expect, it } from "vitest";
import { DBOSRunError, registerOnDBOS, runOnDBOS } from "../../src/dbos/index.js";
import { buildReportGraph, initialReportState } from "../../src/examples/report/index.js";

const graph = registerOnDBOS(buildReportGraph(), { name: "report-unavailable" });

describe("runOnDBOS before DBOS.launch()", () => {
  it("before DBOS.launch(): DBOS_NOT_LAUNCHED, naming the fix", async () => {
    const error = await runOnDBOS(graph, initialReportState(), { workflowId: "early" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DBOSRunError);
    expect(error).toMatchObject({ code: "DBOS_NOT_LAUNCHED" });
    expect((error as Error).message).toMatch(/^runOnDBOS: DBOS is not launched .*DBOS\.launch\(\)/);
  });
});
