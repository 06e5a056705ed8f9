/**
 * What `tsg inspect` shows for its argument: the report example runs live and its threads continue
 * with `tsg resume`'s rules; the research example runs live; a module's compiled graph runs with the
 * input the page sends; a spec is drawn only. A module that names no graph becomes a target with its
 * problem, which the page and the console show.
 */
import {
  DEFAULT_REPORT_REQUEST,
  reportStateSchema,
  initialReportState,
  REPORT_NODE_NAMES,
  ReportRequestError,
  type ReportNodeName,
  type ReportRequest,
  type ReportState,
} from "../examples/report/index.js";
import { buildResearchGraph, initialResearchState } from "../examples/research/index.js";
import type { Checkpoint } from "../persistence/index.js";
import { stateJsonSchemaOf } from "../index.js";
import { cut } from "../inspect/echo.js";
import { InspectError } from "../inspect/errors.js";
import type { InspectTarget, RunnableGraph, ThreadRules } from "../inspect/target.js";
import { exampleSpec, loadGraph, type GraphLoaders } from "./graph-source.js";
import { UsageError } from "./io.js";
import { REPORT_FLAGS } from "./report.js";
import { pausedAt, reportGraphFor, settingsMetadata, settingsOf, type ReportRunSettings } from "./report-thread.js";

/**
 * The target an argument names. Never throws for a graph that cannot be shown: its `problem` says why.
 *
 * @example
 * ```ts
 * const target = await inspectTarget("report"); // runs live, threads resume as with tsg resume
 * ```
 */
export async function inspectTarget(argument: string, loaders?: GraphLoaders): Promise<InspectTarget> {
  if (argument === "report") return reportTarget();
  if (argument === "research") return researchTarget();
  if (argument === "agent") return { label: "agent", spec: exampleSpec("agent") };
  let source: Awaited<ReturnType<typeof loadGraph>>;
  try {
    source = await loadGraph(argument, loaders);
  } catch (error) {
    if (error instanceof UsageError) return { label: argument, problem: error.message };
    throw error;
  }
  if (source.spec === undefined) {
    const listed = source.problems.slice(0, 5).map((p) => `${p.code} at ${p.node}: ${p.message}`);
    const label = cut(argument);
    return { label: argument, problem: `${label} does not validate (tsg check ${label} lists every problem): ${listed.join("; ")}` };
  }
  const { graph } = source;
  if (graph === undefined) return { label: argument, spec: source.spec };
  const inputSchema = stateJsonSchemaOf(graph);
  return {
    label: argument,
    spec: source.spec,
    defaultInput: {},
    // A graph declared with a state schema: the page's input form is built from its JSON Schema.
    ...(inputSchema === undefined ? {} : { inputSchema }),
    run: ({ input }) => ({ graph, input: inputObject(input ?? {}) }),
    threads: moduleThreads(graph),
  };
}

function inputObject(input: unknown): object {
  if (typeof input !== "object" || input === null || Array.isArray(input))
    throw new InspectError("BAD_REQUEST", "inspect: the input must be a JSON object: the graph's initial state.");
  return input;
}

/** A module's graph: continue any checkpoint that has a next node; an edit is an update `{ update, asNode? }`. */
function moduleThreads(graph: RunnableGraph): ThreadRules {
  return {
    graphFor: () => graph,
    pausedAt: () => [],
    editOf(_checkpoint, edit) {
      const { update, asNode } = (typeof edit === "object" && edit !== null ? edit : {}) as { update?: unknown; asNode?: unknown };
      if (asNode !== undefined && typeof asNode !== "string")
        throw new InspectError("BAD_REQUEST", "inspect: edit.asNode must be a node name.");
      if (typeof update !== "object" || update === null || Array.isArray(update))
        throw new InspectError("BAD_REQUEST", "inspect: an edit is { update: { field: value, … }, asNode?: NODE }: the fields to change.");
      return { update, ...(asNode === undefined ? {} : { asNode }) };
    },
  };
}

/** The settings a live report run stores, so `tsg resume` (and this page) rebuild the same graph. */
function reportSettings(interruptBefore: readonly string[] | undefined): ReportRunSettings {
  const nodes = interruptBefore ?? ["publish"];
  const unknown = nodes.filter((node) => !(REPORT_NODE_NAMES as readonly string[]).includes(node));
  if (unknown.length > 0)
    throw new InspectError(
      "BAD_REQUEST",
      `inspect: the report has no node ${unknown.join(", ")}; pause before one of ${REPORT_NODE_NAMES.join(", ")}.`,
    );
  // The page's report runs use tsg report's defaults.
  return {
    command: "report",
    draftStyle: REPORT_FLAGS["draft-style"].default,
    maxRevisions: REPORT_FLAGS["max-revisions"].default,
    maxSteps: REPORT_FLAGS["max-steps"].default,
    interruptBefore: nodes as ReportNodeName[],
  };
}

/**
 * The JSON Schema of what the page sends to start a report run: the request, whose fields are the
 * request fields of the report state's JSON Schema (cities, includeFahrenheit, language), all optional.
 */
function reportRequestSchema(): Record<string, unknown> {
  const state = reportStateSchema["~standard"].jsonSchema.input({ target: "draft-2020-12" });
  const properties = typeof state["properties"] === "object" && state["properties"] !== null ? state["properties"] : {};
  const fields: readonly string[] = Object.keys(DEFAULT_REPORT_REQUEST);
  return {
    type: "object",
    properties: Object.fromEntries(Object.entries(properties).filter(([field]) => fields.includes(field))),
    additionalProperties: false,
  };
}

function reportTarget(): InspectTarget {
  return {
    label: "report",
    spec: exampleSpec("report"),
    interruptChoices: REPORT_NODE_NAMES,
    defaultInput: DEFAULT_REPORT_REQUEST,
    inputSchema: reportRequestSchema(),
    run({ input, interruptBefore }) {
      const settings = reportSettings(interruptBefore);
      let state: ReportState;
      try {
        state = initialReportState((input ?? DEFAULT_REPORT_REQUEST) as ReportRequest);
      } catch (error) {
        if (error instanceof ReportRequestError) throw new InspectError("BAD_REQUEST", error.message);
        throw error;
      }
      return { graph: reportGraphFor(settings), input: state, metadata: settingsMetadata(settings), maxSteps: settings.maxSteps };
    },
    threads: reportThreads,
  };
}

/** `tsg resume`'s rules: the graph from the thread's settings; an edit replaces the draft's notice and goes back through check_draft. */
const reportThreads: ThreadRules = {
  graphFor: (checkpoint) => reportGraphFor(reportSettingsOf(checkpoint)),
  pausedAt: (checkpoint) => {
    const settings = settingsOf(checkpoint);
    return settings === undefined ? [] : pausedAt(checkpoint, settings);
  },
  maxStepsFor: (checkpoint) => settingsOf(checkpoint)?.maxSteps,
  editOf(checkpoint, edit) {
    reportSettingsOf(checkpoint);
    const notice = (typeof edit === "object" && edit !== null ? (edit as { notice?: unknown }).notice : undefined) ?? undefined;
    if (typeof notice !== "string" || notice.trim() === "")
      throw new InspectError("BAD_REQUEST", "inspect: an edit of a report thread is { notice: TEXT }: the draft's new notice.");
    // settingsOf confirmed tsg report (or this page) wrote the thread, so its state is a ReportState.
    const { draft } = (checkpoint as Checkpoint<object> as Checkpoint<ReportState>).state;
    if (draft === null)
      throw new InspectError("BAD_REQUEST", `inspect: thread "${checkpoint.threadId}" has no draft yet; there is no notice to edit.`);
    return { update: { draft: { ...draft, notice }, review: null, events: ["edited notice by hand"] }, asNode: "revise_draft" };
  },
};

function reportSettingsOf(checkpoint: Checkpoint<object>): ReportRunSettings {
  const settings = settingsOf(checkpoint);
  if (settings === undefined)
    throw new InspectError(
      "BAD_REQUEST",
      `inspect: thread "${checkpoint.threadId}" was not started by tsg report; continue it from the program that started it.`,
    );
  return settings;
}

function researchTarget(): InspectTarget {
  const graph = buildResearchGraph() as unknown as RunnableGraph;
  return {
    label: "research",
    spec: graph.spec,
    defaultInput: { topic: "state graphs" },
    run({ input }) {
      const topic = (input as { topic?: unknown } | undefined)?.topic ?? "state graphs";
      if (typeof topic !== "string" || topic.trim() === "")
        throw new InspectError("BAD_REQUEST", "inspect: the research input is { topic: TEXT }.");
      return { graph, input: initialResearchState(topic) };
    },
    threads: moduleThreads(graph),
  };
}
