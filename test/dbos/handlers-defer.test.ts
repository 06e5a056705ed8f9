/**
 * Error handlers and deferred nodes on DBOS (issue 38): a run on DBOS ends as `invoke` does. A handled
 * failure routes where its handler says (its update in the node's place, its Command's goto), a
 * graph-wide handler answers for every node, an unhandled failure fails the run with the mini engine's
 * error, and the handler reads the error as a threaded run gives it (JSON: node, code, name, message).
 * A deferred node runs once, after the other pending branches, beside Sends and behind a join.
 */
import { describe, expect, it } from "vitest";
import { registerOnDBOS, runOnDBOS } from "../../src/dbos/index.js";
import { append, END, START, StateGraph, type CompiledGraph } from "../../src/index.js";
import { MemoryCheckpointer } from "../../src/persistence/index.js";
import { joinIntoDeferred, reduceBesideSends, unevenBranches } from "../helpers/defer-graphs.js";
import { defaultHandler, handledBesideSibling, handledToRecovery, type LogState } from "../helpers/handler-graphs.js";
import { settleOn } from "./_compare.js";
import { launchDBOSForFile } from "./_launch.js";

/** START → a (throws, retried twice) → END; with `handled`, a's handler logs the error it was given, as JSON. */
function failing(handled: boolean) {
  const attempts = { count: 0 };
  const boom = (): never => {
    attempts.count += 1;
    throw new Error("boom");
  };
  const graph = new StateGraph<LogState>({ reducers: { log: append } })
    .addNode("a", boom, {
      retry: { maxAttempts: 2, initialInterval: 1, jitter: false },
      ...(handled
        ? { errorHandler: (_s: LogState, { error }: { error: unknown }) => ({ log: [`handled ${JSON.stringify(error)}`] }) }
        : {}),
    })
    .addEdge(START, "a")
    .addEdge("a", END)
    .compile();
  return { graph, attempts };
}

const graphs: Record<string, CompiledGraph<LogState>> = {
  "a handled failure beside a sibling (the handler's update in its place)": handledBesideSibling(),
  "a handler's Command goto to a declared end": handledToRecovery(),
  "the graph-wide default handler, for two failing nodes": defaultHandler(),
  "a deferred reduce after branches of different lengths": unevenBranches(),
  "the same graph without defer (the reduce runs twice)": unevenBranches(false),
  "a deferred reduce beside pending Sends": reduceBesideSends(),
  "a join into a deferred node, with a longer third branch": joinIntoDeferred(),
};
for (const [index, graph] of Object.values(graphs).entries()) registerOnDBOS(graph, { name: `rule-${index}` });
const handled = failing(true);
const unhandled = failing(false);
registerOnDBOS(handled.graph, { name: "handled-json" });
registerOnDBOS(unhandled.graph, { name: "unhandled" });

const nextId = launchDBOSForFile("dbos_handlers_defer");
const input = (): LogState => ({ log: [] });

describe("error handlers and deferred nodes on DBOS end as invoke does", () => {
  for (const [name, graph] of Object.entries(graphs)) {
    it(name, async () => {
      const expected = await settleOn(graph.invoke(input()));
      expect(expected.ok).toBeDefined();
      expect(await settleOn(runOnDBOS(graph, input(), { workflowId: nextId("rule") }))).toEqual(expected);
    });
  }

  it("the handler runs after the node's retries, and reads the error as JSON, as on a thread", async () => {
    const thread = await handled.graph.invoke(input(), { threadId: "t", checkpointer: new MemoryCheckpointer() });
    handled.attempts.count = 0;
    const durable = await runOnDBOS(handled.graph, input(), { workflowId: nextId("json") });
    expect(handled.attempts.count).toBe(2);
    expect(durable.state).toEqual(thread.state);
    expect(durable.state.log[0]).toMatch(/^handled \{"node":"a",.*"message":".*boom/);
  });

  it("an unhandled failure fails the run with the mini engine's error, after its retries", async () => {
    const expected = await settleOn(unhandled.graph.invoke(input()));
    expect(expected.failed).toMatchObject({ code: "NODE_FAILED", node: "a" });
    unhandled.attempts.count = 0;
    expect(await settleOn(runOnDBOS(unhandled.graph, input(), { workflowId: nextId("unhandled") }))).toEqual(expected);
    expect(unhandled.attempts.count).toBe(2);
  });
});
