/** `tsg resume`: continues a report thread that paused at an interrupt, or whose process died. */
import { isSameDraft, type ReportState } from "../examples/report/index.js";
import { DEFAULT_DB_FILE, PersistenceError, type Checkpoint } from "../persistence/index.js";
import { UsageError, type CliIO, type Command } from "./io.js";
import { parseCommandFlags } from "./options.js";
import {
  EXIT_PAUSED,
  pausedAt,
  reportGraphFor,
  runReportThread,
  settingsOf,
  withCheckpointer,
  type ReportRunSettings,
  type ThreadLocation,
} from "./report-thread.js";

const USAGE = `Usage: tsg resume --thread T [--db FILE] [--approve | --edit-notice TEXT] [--checkpoint ID]

Continues a report thread started with \`tsg report --thread T\`: after an interrupt, or after the
process died (the node that was running when it died runs again: at-least-once).

Options:
  --thread T           the thread to resume (required)
  --db FILE            the checkpoint database (default: ${DEFAULT_DB_FILE} in the current directory)
  --approve            publish the paused, checked draft
  --edit-notice TEXT   replace the draft's notice; the edited draft goes back through check_draft
  --checkpoint ID      resume from an older checkpoint (see tsg history), forking a new branch
  -h, --help           show this help

Exit codes: 0 published, 1 held or stopped, 2 bad arguments or unknown thread, ${EXIT_PAUSED} paused again.`;

const FLAGS = {
  thread: { type: "string" },
  db: { type: "string" },
  approve: { type: "boolean" },
  "edit-notice": { type: "string" },
  checkpoint: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

interface ResumeRequest {
  readonly location: ThreadLocation;
  readonly approve: boolean;
  readonly editNotice: string | undefined;
  readonly checkpointId: string | undefined;
}

/**
 * Runs `tsg resume` with the arguments after `resume` and resolves with the exit code.
 *
 * @example
 * ```ts
 * await runResumeCommand(["--thread", "brief-1", "--approve"], { stdout: process.stdout, stderr: process.stderr }); // 0
 * ```
 */
export async function runResumeCommand(argv: readonly string[], io: CliIO): Promise<number> {
  let request: ResumeRequest | "help";
  try {
    request = prepare(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`tsg resume: ${error.message}\nRun \`tsg resume --help\` for the options.\n`);
    return 2;
  }
  if (request === "help") {
    io.stdout.write(USAGE + "\n");
    return 0;
  }
  try {
    return await resume(request, io);
  } catch (error) {
    if (!(error instanceof UsageError || error instanceof PersistenceError)) throw error;
    io.stderr.write(`tsg resume: ${error.message}\n`);
    return 2;
  }
}

/** `tsg resume`, for the command table. */
export const resumeCommand: Command = {
  summary: "resume a report thread: approve or edit a paused draft, or finish a crashed run",
  run: runResumeCommand,
};

function prepare(argv: readonly string[]): ResumeRequest | "help" {
  const { values } = parseCommandFlags(argv, FLAGS);
  if (values.help === true) return "help";
  if (values.thread === undefined || values.thread.trim() === "")
    throw new UsageError("--thread T is required: the thread to resume (see tsg history).");
  if (values.approve === true && values["edit-notice"] !== undefined)
    throw new UsageError("pass --approve or --edit-notice TEXT, not both.");
  return {
    location: { threadId: values.thread, db: values.db ?? DEFAULT_DB_FILE },
    approve: values.approve === true,
    editNotice: values["edit-notice"],
    checkpointId: values.checkpoint,
  };
}

async function resume(request: ResumeRequest, io: CliIO): Promise<number> {
  const { location, checkpointId } = request;
  const from = await withCheckpointer(location, (checkpointer) =>
    checkpointId === undefined ? checkpointer.latest(location.threadId) : checkpointer.get(location.threadId, checkpointId),
  );
  if (from === undefined) {
    const what =
      checkpointId === undefined
        ? `thread "${location.threadId}" has no checkpoint in ${location.db}`
        : `thread "${location.threadId}" has no checkpoint "${checkpointId}"`;
    throw new UsageError(`${what}. Start one with tsg report --thread ${location.threadId}.`);
  }
  const settings = settingsOf(from);
  if (settings === undefined)
    throw new UsageError(`thread "${location.threadId}" was not started by tsg report; resume it from the program that started it.`);
  const paused = pausedAt(from, settings);
  // settingsOf confirmed tsg report wrote this thread, so its state is a ReportState.
  if (request.editNotice !== undefined)
    return editAndResume(request, request.editNotice, settings, from as unknown as Checkpoint<ReportState>, io);
  if (paused.length > 0 && !request.approve) {
    throw new UsageError(
      `thread "${location.threadId}" is paused before ${paused.join(", ")}: pass --approve to continue, or --edit-notice TEXT to change the draft.`,
    );
  }
  return runReportThread(location, null, settings, io, checkpointId === undefined ? {} : { checkpointId });
}

/** The edit recipe of docs/persistence.md: write the edited draft as if revise_draft wrote it, so check_draft runs next. */
async function editAndResume(
  request: ResumeRequest,
  notice: string,
  settings: ReportRunSettings,
  from: Checkpoint<ReportState>,
  io: CliIO,
): Promise<number> {
  const { draft } = from.state;
  if (draft === null) throw new UsageError(`thread "${request.location.threadId}" has no draft yet; there is no notice to edit.`);
  if (isSameDraft({ ...draft, notice }, draft))
    io.stderr.write(`tsg resume: the notice is unchanged; the draft is checked again anyway.\n`);
  await withCheckpointer(request.location, (checkpointer) =>
    reportGraphFor(settings).updateState(
      request.location.threadId,
      { draft: { ...draft, notice }, review: null, events: ["edited notice by hand"] },
      { asNode: "revise_draft", checkpointer, ...(request.checkpointId === undefined ? {} : { checkpointId: request.checkpointId }) },
    ),
  );
  return runReportThread(request.location, null, settings, io);
}
