/** The report workflow wired as a state graph. */
import { append, END, START, stateGraph, type CompiledGraph, type CompileOptions } from "../../index.js";
import { createReportNodes, type ReportNodeName, type ReportNodeOptions } from "./nodes.js";
import { reportStateSchema } from "./schema.js";
import type { ReportState } from "./state.js";

/**
 * Builds and compiles the report graph:
 *
 * ```text
 * START → collect → write_draft → check_draft ──accept──▶ publish ──▶ END
 *                                  │   ▲     └──hold────▶ hold ─────▶ END
 *                            revise│   │
 *                                  ▼   │
 *                               revise_draft
 * ```
 *
 * @throws InvalidOptionError for bad options (see {@link createReportNodes}).
 * @example
 * ```ts
 * const graph = buildReportGraph({ draftStyle: "complete", maxRevisions: 0 });
 * const { state, trace } = await graph.invoke(initialReportState(), { maxSteps: 30 });
 * // trace: collect, write_draft, check_draft, publish
 * const reviewed = buildReportGraph({}, { interruptBefore: ["publish"] }); // a threaded run pauses before publishing
 * ```
 */
export function buildReportGraph(
  options: ReportNodeOptions = {},
  compileOptions: CompileOptions<ReportNodeName> = {},
): CompiledGraph<ReportState> {
  const nodes = createReportNodes(options);
  // The state's schema checks every state a run commits; its JSON Schema lists the fields (no `fields` needed).
  return stateGraph(reportStateSchema)({ reducers: { events: append } })
    .addNode("collect", nodes.collect)
    .addNode("write_draft", nodes.write_draft)
    .addNode("check_draft", nodes.check_draft)
    .addNode("revise_draft", nodes.revise_draft)
    .addNode("publish", nodes.publish)
    .addNode("hold", nodes.hold)
    .addEdge(START, "collect")
    .addEdge("collect", "write_draft")
    .addEdge("write_draft", "check_draft")
    .addConditionalEdges("check_draft", nodes.routeAfterCheck, { accept: "publish", revise: "revise_draft", hold: "hold" })
    .addEdge("revise_draft", "check_draft")
    .addEdge("publish", END)
    .addEdge("hold", END)
    .compile(compileOptions);
}
