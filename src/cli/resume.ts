/** `tsg resume`: continues a report thread that paused at an interrupt, or whose process died. */
import { isSameDraft, type ReportState } from "../examples/report/index.js";
import { DEFAULT_DB_FILE, type Checkpoint } from "../persistence/index.js";
import { defineCommand } from "./command.js";
import { UsageError, type CliIO } from "./io.js";
import { EXIT_PAUSED, pausedAt, reportGraphFor, runReportThread, settingsOf, type ReportRunSettings } from "./report-thread.js";
import { checkCheckpointFlag, DB_FLAG, THREAD_FLAG, withCheckpointer, type ThreadLocation } from "./thread-db.js";
import { cut, quote } from "../inspect/echo.js";

interface ResumeRequest {
  readonly location: ThreadLocation;
  readonly approve: boolean;
  readonly editNotice: string | undefined;
  readonly checkpointId: string | undefined;
}

/** `tsg resume`, for the command table. */
export const resumeCommand = defineCommand({
  name: "resume",
  summary: "resume a report thread: approve or edit a paused draft, or finish a crashed run",
  description:
    "Continues a report thread started with `tsg report --thread T`: after an interrupt, or after the\n" +
    "process died (the node that was running when it died runs again: at-least-once).",
  flags: {
    thread: { ...THREAD_FLAG, description: "the thread to resume (required)" },
    db: DB_FLAG,
    approve: { type: "boolean", description: "publish the paused, checked draft" },
    "edit-notice": {
      type: "string",
      valueHint: "TEXT",
      description: "replace the draft's notice; the edited draft goes back through check_draft",
    },
    checkpoint: { type: "string", valueHint: "ID", description: "resume from an older checkpoint (see tsg history), forking a new branch" },
  },
  exitCodes: `0 published, 1 held or stopped, 2 bad arguments, an unknown thread or an unusable --db, ${EXIT_PAUSED} paused again.`,
  async run({ flags }, io) {
    if (flags.thread === undefined || flags.thread.trim() === "")
      throw new UsageError("--thread T is required: the thread to resume (see tsg history).");
    if (flags.approve === true && flags["edit-notice"] !== undefined)
      throw new UsageError("pass --approve or --edit-notice TEXT, not both.");
    if (flags.checkpoint !== undefined) checkCheckpointFlag(flags.checkpoint);
    return resume(
      {
        location: { threadId: flags.thread, db: flags.db ?? DEFAULT_DB_FILE },
        approve: flags.approve === true,
        editNotice: flags["edit-notice"],
        checkpointId: flags.checkpoint,
      },
      io,
    );
  },
});

/**
 * Runs `tsg resume` with the arguments after `resume` and resolves with the exit code.
 *
 * @example
 * ```ts
 * await runResumeCommand(["--thread", "brief-1", "--approve"], { stdout: process.stdout, stderr: process.stderr }); // 0
 * ```
 */
export function runResumeCommand(argv: readonly string[], io: CliIO): Promise<number> {
  return resumeCommand.run(argv, io);
}

async function resume(request: ResumeRequest, io: CliIO): Promise<number> {
  const { location, checkpointId } = request;
  const from = await withCheckpointer(
    location,
    (checkpointer) =>
      checkpointId === undefined ? checkpointer.latest(location.threadId) : checkpointer.get(location.threadId, checkpointId),
    { create: false, mapStoreErrors: true },
  );
  if (from === undefined) {
    const thread = quote(location.threadId);
    throw new UsageError(
      checkpointId === undefined
        ? `thread ${thread} has no checkpoint in ${cut(location.db)}. Start one with tsg report --thread ${cut(location.threadId)}.`
        : `thread ${thread} has no checkpoint ${quote(checkpointId)} in ${cut(location.db)}; tsg history --thread ${cut(location.threadId)} lists its checkpoints.`,
    );
  }
  const settings = settingsOf(from);
  if (settings === undefined)
    throw new UsageError(`thread ${quote(location.threadId)} was not started by tsg report; resume it from the program that started it.`);
  const paused = pausedAt(from, settings);
  // settingsOf confirmed tsg report wrote this thread, so its state is a ReportState.
  if (request.editNotice !== undefined)
    return editAndResume(request, request.editNotice, settings, from as unknown as Checkpoint<ReportState>, io);
  if (paused.length > 0 && !request.approve) {
    throw new UsageError(
      `thread ${quote(location.threadId)} is paused before ${paused.join(", ")}: pass --approve to continue, or --edit-notice TEXT to change the draft.`,
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
  if (draft === null) throw new UsageError(`thread ${quote(request.location.threadId)} has no draft yet; there is no notice to edit.`);
  if (isSameDraft({ ...draft, notice }, draft))
    io.stderr.write(`tsg resume: the notice is unchanged; the draft is checked again anyway.\n`);
  await withCheckpointer(
    request.location,
    (checkpointer) =>
      reportGraphFor(settings).updateState(
        request.location.threadId,
        { draft: { ...draft, notice }, review: null, events: ["edited notice by hand"] },
        { asNode: "revise_draft", checkpointer, ...(request.checkpointId === undefined ? {} : { checkpointId: request.checkpointId }) },
      ),
    { create: false, mapStoreErrors: true },
  );
  return runReportThread(request.location, null, settings, io);
}
