/**
 * The report graph with I/O-bound nodes, for the DBOS throughput bench: the same spec, nodes and
 * router, each node first awaiting a 20 ms timer (a call to a service, say).
 */
import { bindSpec, type CompiledGraph } from "../src/index.js";
import { buildReportGraph, createReportNodes, REPORT_NODE_NAMES, type ReportState } from "../src/examples/report/index.js";

/** The timer each node awaits. */
export const NODE_WAIT_MS = 20;

export function ioBoundReportGraph(): CompiledGraph<ReportState> {
  const nodes = createReportNodes();
  const waiting = Object.fromEntries(
    REPORT_NODE_NAMES.map((name) => [
      name,
      async (state: ReportState) => {
        await new Promise((resolve) => setTimeout(resolve, NODE_WAIT_MS));
        return nodes[name](state);
      },
    ]),
  );
  return bindSpec(buildReportGraph().spec as unknown, {
    nodes: waiting,
    routers: { check_draft: nodes.routeAfterCheck },
  }) as unknown as CompiledGraph<ReportState>;
}
