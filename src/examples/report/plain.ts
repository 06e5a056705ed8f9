/**
 * The report workflow as an ordinary loop, with no engine: the reference the graph is compared
 * against. Same nodes, same router, same merge rule (replace, except `events`, which appends).
 */
import { copyData } from "../_data.js";
import type { ReportNodeName, ReportNodes } from "./nodes.js";
import type { ReportState, ReportUpdate } from "./state.js";

/** What {@link runReportPlain} resolves with. */
export interface PlainReportResult {
  readonly state: ReportState;
  /** The nodes run, in order. */
  readonly trace: ReportNodeName[];
}

/**
 * Runs the report nodes in a plain loop: collect, write, then check and follow the router until
 * publish or hold. It needs no step bound: `revise_draft` refuses once the budget is spent.
 *
 * @example
 * ```ts
 * const { state, trace } = await runReportPlain(initialReportState(), createReportNodes());
 * // trace: collect, write_draft, check_draft, revise_draft, check_draft, publish
 * ```
 */
export async function runReportPlain(state: ReportState, nodes: ReportNodes): Promise<PlainReportResult> {
  let current = copyData(state);
  const trace: ReportNodeName[] = [];
  const run = async (name: ReportNodeName): Promise<void> => {
    current = merge(current, await nodes[name](current));
    trace.push(name);
  };

  await run("collect");
  await run("write_draft");
  for (;;) {
    await run("check_draft");
    const route = nodes.routeAfterCheck(current);
    if (route !== "revise") {
      await run(route === "accept" ? "publish" : "hold");
      return { state: current, trace };
    }
    await run("revise_draft");
  }
}

function merge(state: ReportState, update: ReportUpdate): ReportState {
  return { ...state, ...update, events: [...state.events, ...(update.events ?? [])] };
}
