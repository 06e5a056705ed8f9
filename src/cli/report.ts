/** `tsg report`: runs the report workflow (the two-city weather brief) and prints its outcome. */
import {
  buildReportGraph,
  DEFAULT_REPORT_REQUEST,
  DRAFT_STYLES,
  initialReportState,
  LANGUAGES,
  REPORT_NODE_NAMES,
  ReportRequestError,
  type ReportNodeName,
  type City,
  type DraftStyle,
  type ReportState,
} from "../examples/report/index.js";
import { GraphExecutionError, GraphLimitError, type Step } from "../index.js";
import { formatUpdateLine } from "./format.js";
import { ENGINES, streamOnEngine } from "./engines.js";
import { UsageError, type CliIO } from "./io.js";
import { DEFAULT_DB_FILE } from "../persistence/index.js";
import { defineCommand, type FlagTable, type FlagValues } from "./command.js";
import { EXIT_PAUSED, runReportThread } from "./report-thread.js";
import { DB_FLAG, withCheckpointer, type ThreadLocation } from "./thread-db.js";
import { cut, cutLines, quote } from "../inspect/echo.js";

/** The engines `--engine` accepts: only engines that exist, so a choice never falls back silently. */
export const REPORT_ENGINES = ENGINES;

/** An engine `tsg report` can run on. */
export type ReportEngine = (typeof REPORT_ENGINES)[number];

/** The step bound of a report run unless `--max-steps` says otherwise. */
export const REPORT_DEFAULT_MAX_STEPS = 30;

/** The options of `tsg report`, each default written here once (the inspector's report runs read them too). */
export const REPORT_FLAGS = {
  cities: {
    type: "string",
    valueHint: "Tokyo,Paris",
    description: "cities to brief, comma-separated",
    multiple: true,
    defaultHelp: DEFAULT_REPORT_REQUEST.cities.join(","),
  },
  language: {
    type: "choice",
    choices: LANGUAGES,
    description: "page language, which picks the required notice",
    default: DEFAULT_REPORT_REQUEST.language,
  },
  "celsius-only": { type: "boolean", description: "leave out °F" },
  "draft-style": { type: "choice", choices: DRAFT_STYLES, description: "how the scripted writer drafts", default: "missing-notice" },
  "max-revisions": { type: "integer", min: 0, description: "revisions allowed after the first check", default: 1 },
  "max-steps": { type: "integer", min: 1, description: "node executions allowed", default: REPORT_DEFAULT_MAX_STEPS },
  "show-updates": { type: "boolean", description: "print the fields each node updated" },
  engine: { type: "choice", choices: REPORT_ENGINES, description: "the engine to run on", default: "mini" },
  thread: { type: "string", valueHint: "T", description: "save a checkpoint per step on thread T (resume it with tsg resume)" },
  db: DB_FLAG,
  "interrupt-before": {
    type: "choice",
    choices: REPORT_NODE_NAMES,
    valueHint: "NODE",
    description: `with --thread: pause before NODE (e.g. publish), print the draft, exit ${EXIT_PAUSED}`,
    multiple: true,
  },
} as const satisfies FlagTable;

/** `tsg report`, for the command table. */
export const reportCommand = defineCommand({
  name: "report",
  summary: "run the two-city weather brief (collect, check, revise, publish or hold)",
  description: "Runs the two-city weather brief: collect, draft, check, revise, then publish or hold.",
  flags: REPORT_FLAGS,
  exitCodes:
    "0 published, 1 held or stopped by the step limit, 2 bad arguments or request,\n" +
    `${EXIT_PAUSED} paused at --interrupt-before (continue with tsg resume --thread T).`,
  async run({ flags }, io) {
    let run: PreparedRun;
    try {
      run = prepare(flags);
    } catch (error) {
      if (error instanceof ReportRequestError) throw new UsageError(error.message);
      throw error;
    }
    return execute(run, io);
  },
});

/**
 * Runs `tsg report` with the arguments after `report` and resolves with the exit code:
 * 0 published, 1 held or stopped by the step limit, 2 bad arguments or a bad request.
 *
 * @example
 * ```ts
 * const code = await runReportCommand(["--draft-style", "stubborn", "--max-revisions", "2"], { stdout: process.stdout, stderr: process.stderr });
 * // code === 1, after "status: needs_attention revisions: 2"
 * ```
 */
export function runReportCommand(argv: readonly string[], io: CliIO): Promise<number> {
  return reportCommand.run(argv, io);
}

interface PreparedRun {
  readonly input: ReportState;
  readonly engine: ReportEngine;
  readonly draftStyle: DraftStyle;
  readonly maxRevisions: number;
  readonly maxSteps: number;
  readonly showUpdates: boolean;
  /** With --thread: where checkpoints go, and the nodes to pause before. */
  readonly thread?: ThreadLocation & { readonly interruptBefore: readonly ReportNodeName[] };
}

/** Turns the flags into a validated run, or throws a UsageError / ReportRequestError. */
function prepare(flags: FlagValues<typeof REPORT_FLAGS>): PreparedRun {
  return {
    engine: flags.engine,
    input: initialReportState({
      cities: parseCities(flags.cities) ?? DEFAULT_REPORT_REQUEST.cities,
      includeFahrenheit: !flags["celsius-only"],
      language: flags.language,
    }),
    draftStyle: flags["draft-style"],
    maxRevisions: flags["max-revisions"],
    maxSteps: flags["max-steps"],
    showUpdates: flags["show-updates"],
    ...parseThreadFlags(flags.thread, flags.db, flags["interrupt-before"], flags.engine),
  };
}

function parseThreadFlags(
  thread: string | undefined,
  db: string | undefined,
  interruptBefore: readonly ReportNodeName[] | undefined,
  engine: ReportEngine,
): Pick<PreparedRun, "thread"> {
  if (thread === undefined) {
    if (db !== undefined || interruptBefore !== undefined)
      throw new UsageError("--db and --interrupt-before need --thread T: the thread to save the run on.");
    return {};
  }
  if (engine !== "mini") throw new UsageError("--thread runs on the mini engine, which writes the checkpoints; drop --engine.");
  if (thread.trim() === "") throw new UsageError("--thread must name a thread, e.g. --thread brief-1.");
  return { thread: { threadId: thread, db: db ?? DEFAULT_DB_FILE, interruptBefore: interruptBefore ?? [] } };
}

/** `--cities Tokyo,Paris` and `--cities Tokyo --cities Paris` both give ["Tokyo", "Paris"]. */
function parseCities(values: readonly string[] | undefined): City[] | undefined {
  if (values === undefined) return undefined;
  const names = values.flatMap((value) => value.split(",")).map((name) => name.trim());
  if (names.some((name) => name === "")) {
    throw new UsageError(`--cities must list city names separated by commas, e.g. --cities Tokyo,Paris; got ${quote(values.join(","))}.`);
  }
  // Unchecked on purpose: initialReportState is the one place that knows which cities exist, and it rejects the rest.
  return names as City[];
}

async function execute(run: PreparedRun, io: CliIO): Promise<number> {
  if (run.thread !== undefined) return executeOnThread(run, run.thread, io);
  const graph = buildReportGraph({ draftStyle: run.draftStyle, maxRevisions: run.maxRevisions });
  let last: Step<ReportState> | undefined;
  try {
    for await (const step of streamOnEngine(run.engine, graph, run.input, { maxSteps: run.maxSteps })) {
      if (run.showUpdates) io.stdout.write(formatUpdateLine(step.node, step.update) + "\n");
      last = step;
    }
  } catch (error) {
    if (error instanceof GraphLimitError) {
      io.stdout.write(`stopped before: ${error.node}\ncompleted: ${error.trace.join(" -> ") || "(none)"}\n`);
      return 1;
    }
    if (error instanceof GraphExecutionError) {
      io.stderr.write(
        `tsg report: the run failed at ${error.node}: ${cutLines(error.message)}\ncompleted: ${error.trace.join(" -> ") || "(none)"}\n`,
      );
      return 1;
    }
    throw error;
  }
  const state = last?.state ?? run.input;
  io.stdout.write(`status: ${state.status} revisions: ${state.revisions}\n`);
  io.stdout.write(`events: ${state.events.join(" -> ")}\n`);
  io.stdout.write(`${state.answer ?? "No approved brief. Last draft remains in state."}\n`);
  return state.status === "completed" ? 0 : 1;
}

async function executeOnThread(run: PreparedRun, thread: NonNullable<PreparedRun["thread"]>, io: CliIO): Promise<number> {
  const unfinished = await withCheckpointer(thread, async (checkpointer) => (await checkpointer.latest(thread.threadId))?.next ?? [], {
    create: true,
    mapStoreErrors: true,
  });
  if (unfinished.length > 0) {
    throw new UsageError(
      `thread ${quote(thread.threadId)} has a run waiting before ${unfinished.join(", ")}; continue it with tsg resume --thread ${cut(thread.threadId)}, or choose another --thread.`,
    );
  }
  const settings = {
    command: "report",
    draftStyle: run.draftStyle,
    maxRevisions: run.maxRevisions,
    maxSteps: run.maxSteps,
    interruptBefore: thread.interruptBefore,
  } as const;
  return runReportThread(thread, run.input, settings, io, { showUpdates: run.showUpdates });
}
