/**
 * The report workflow on a thread, shared by `tsg report --thread`, `tsg resume` and `tsg history`:
 * the run settings stored with each checkpoint (so a resume rebuilds the same graph), the outcome
 * printout, and exit code 3 for a run paused at an interrupt.
 */
import {
  buildReportGraph,
  DRAFT_STYLES,
  renderBrief,
  REPORT_NODE_NAMES,
  type DraftStyle,
  type ReportNodeName,
  type ReportState,
} from "../examples/report/index.js";
import { GraphExecutionError, GraphLimitError } from "../index.js";
import { DEFAULT_DB_FILE, PersistenceError, type Checkpoint, type JsonValue, type ThreadRunResult } from "../persistence/index.js";
import { formatUpdateLine } from "./format.js";
import type { CliIO } from "./io.js";
import { withCheckpointer, type ThreadLocation } from "./thread-db.js";
import { cut, cutLines } from "../inspect/echo.js";

/** The exit code of a run that paused at an interrupt, waiting for `tsg resume`. */
export const EXIT_PAUSED = 3;

/** What `tsg report --thread` stores in each checkpoint's `metadata.user`, so `tsg resume` runs the same graph. */
export interface ReportRunSettings {
  readonly command: "report";
  readonly draftStyle: DraftStyle;
  readonly maxRevisions: number;
  readonly maxSteps: number;
  readonly interruptBefore: readonly ReportNodeName[];
}

/** The report graph a thread's settings describe. */
export function reportGraphFor(settings: ReportRunSettings) {
  return buildReportGraph(
    { draftStyle: settings.draftStyle, maxRevisions: settings.maxRevisions },
    { interruptBefore: settings.interruptBefore },
  );
}

/** The settings as checkpoint metadata. */
export function settingsMetadata(settings: ReportRunSettings): Record<string, JsonValue> {
  return { ...settings, interruptBefore: [...settings.interruptBefore] };
}

/** Reads the settings back from a checkpoint, or `undefined` when `tsg report` did not write it. */
export function settingsOf(checkpoint: Checkpoint<object>): ReportRunSettings | undefined {
  const user = checkpoint.metadata.user ?? {};
  const { draftStyle, maxRevisions, maxSteps, interruptBefore } = user;
  if (user["command"] !== "report" || !DRAFT_STYLES.includes(draftStyle as DraftStyle)) return undefined;
  if (!Number.isSafeInteger(maxRevisions) || !Number.isSafeInteger(maxSteps) || !Array.isArray(interruptBefore)) return undefined;
  if (!interruptBefore.every((node) => (REPORT_NODE_NAMES as readonly unknown[]).includes(node))) return undefined;
  return {
    command: "report",
    draftStyle: draftStyle as DraftStyle,
    maxRevisions: maxRevisions as number,
    maxSteps: maxSteps as number,
    interruptBefore: interruptBefore as ReportNodeName[],
  };
}

/** The nodes of `checkpoint` the run pauses before, per its settings: non-empty means it waits for a person. */
export function pausedAt(checkpoint: Checkpoint<object>, settings: ReportRunSettings): string[] {
  return checkpoint.next.filter((node) => (settings.interruptBefore as readonly string[]).includes(node));
}

/** The `tsg resume` command line for this thread, with `--db` when it is not the default. */
export function resumeCommand(location: ThreadLocation, flags: string): string {
  const db = location.db === DEFAULT_DB_FILE ? "" : ` --db ${cut(location.db)}`;
  return `tsg resume --thread ${cut(location.threadId)}${db}${flags}`;
}

/**
 * Runs (or resumes) the report on its thread and prints the outcome. Resolves with the exit code:
 * 0 published, 1 held, stopped or failed, 3 paused at an interrupt.
 */
export async function runReportThread(
  location: ThreadLocation,
  input: ReportState | null,
  settings: ReportRunSettings,
  io: CliIO,
  options: { readonly showUpdates?: boolean; readonly checkpointId?: string } = {},
): Promise<number> {
  let result: ThreadRunResult<ReportState>;
  try {
    result = await withCheckpointer(
      location,
      (checkpointer) =>
        reportGraphFor(settings).invoke(input, {
          threadId: location.threadId,
          checkpointer,
          maxSteps: settings.maxSteps,
          metadata: settingsMetadata(settings),
          ...(options.checkpointId === undefined ? {} : { checkpointId: options.checkpointId }),
        }),
      { create: true, mapStoreErrors: false },
    );
  } catch (error) {
    return reportFailure(error, location, io);
  }
  if (options.showUpdates === true) for (const step of result.steps) io.stdout.write(formatUpdateLine(step.node, step.update) + "\n");
  if (result.status === "interrupted") {
    printPaused(result.state, result.interrupt.nodes, location, io);
    return EXIT_PAUSED;
  }
  const { state } = result;
  io.stdout.write(`status: ${state.status} revisions: ${state.revisions}\n`);
  io.stdout.write(`events: ${state.events.join(" -> ")}\n`);
  io.stdout.write(`${state.answer ?? "No approved brief. Last draft remains in state."}\n`);
  io.stdout.write(`thread: ${cut(location.threadId)} (${cut(location.db)})\n`);
  return state.status === "completed" ? 0 : 1;
}

/** What a person reads at a pause: where it stopped, the draft, and the commands that continue it. */
export function printPaused(state: ReportState, nodes: readonly string[], location: ThreadLocation, io: CliIO): void {
  const lines = [
    `paused before: ${nodes.join(", ")}`,
    `thread: ${cut(location.threadId)} (${cut(location.db)})`,
    `events: ${state.events.join(" -> ")}`,
    "draft:",
    state.draft === null ? "(no draft yet)" : renderBrief(state.draft),
    "",
    nodes.includes("publish") ? `Approve: ${resumeCommand(location, " --approve")}` : `Continue: ${resumeCommand(location, " --approve")}`,
    ...(state.draft === null ? [] : [`Edit:    ${resumeCommand(location, ' --edit-notice "TEXT"')}  (the edited draft is checked again)`]),
  ];
  io.stdout.write(lines.join("\n") + "\n");
}

function reportFailure(error: unknown, location: ThreadLocation, io: CliIO): number {
  if (error instanceof GraphLimitError) {
    io.stdout.write(
      `stopped before: ${error.node}\ncompleted: ${error.trace.join(" -> ") || "(none)"}\nthread: ${cut(location.threadId)} (${cut(location.db)})\n`,
    );
    return 1;
  }
  if (error instanceof GraphExecutionError) {
    io.stderr.write(
      `tsg: the run failed at ${error.node}: ${cutLines(error.message)}\ncompleted: ${error.trace.join(" -> ") || "(none)"}\n`,
    );
    return 1;
  }
  if (error instanceof PersistenceError) {
    io.stderr.write(`tsg: ${cutLines(error.message)}\n`);
    return 1;
  }
  throw error;
}
