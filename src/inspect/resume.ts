/**
 * Resume, fork and edit from the page, with `tsg resume`'s rules: a thread paused at an interrupt
 * continues only when approved or edited; an edit goes through `updateState` (from an older checkpoint,
 * it forks), then the thread runs on; a checkpoint at END has nothing to resume.
 */
import type { Checkpoint, Checkpointer } from "../persistence/index.js";
import { InspectError } from "./errors.js";
import type { LiveRunSpec } from "./runs.js";
import type { ThreadRules } from "./target.js";
import { quote } from "./echo.js";

/** What the page asks: approve a paused thread, continue one (a fork from an older checkpoint), or edit it. */
export interface ResumeRequest {
  readonly action: "approve" | "continue" | "edit";
  /** Resume from this checkpoint instead of the latest: a fork. */
  readonly checkpointId?: string;
  /** For `edit`: what the target's rules read (`{ notice }` for a report thread). */
  readonly edit?: unknown;
}

/**
 * Checks a resume body.
 *
 * @example
 * ```ts
 * resumeRequestOf({ action: "approve" }); // { action: "approve" }
 * ```
 */
export function resumeRequestOf(body: Readonly<Record<string, unknown>>): ResumeRequest {
  const { action, checkpointId, edit } = body;
  if (action !== "approve" && action !== "continue" && action !== "edit")
    throw new InspectError("BAD_REQUEST", `inspect: action must be "approve", "continue" or "edit"; got ${quote(action)}.`);
  if (checkpointId !== undefined && typeof checkpointId !== "string")
    throw new InspectError("BAD_REQUEST", "inspect: checkpointId must be a checkpoint id (a string).");
  return { action, ...(checkpointId === undefined ? {} : { checkpointId }), ...(edit === undefined ? {} : { edit }) };
}

/**
 * The live run that continues `from` as `request` asks, after any edit is written; throws an
 * `InspectError` when the rules refuse (a paused thread without approval, a checkpoint at END).
 *
 * @example
 * ```ts
 * const run = await resumePlan(rules, "brief-1", checkpointer, latest, { action: "approve" });
 * runs.start(run, onEnd);
 * ```
 */
export async function resumePlan(
  rules: ThreadRules,
  threadId: string,
  checkpointer: Checkpointer,
  from: Checkpoint<object>,
  request: ResumeRequest,
): Promise<LiveRunSpec> {
  const graph = rules.graphFor(from);
  const maxSteps = rules.maxStepsFor?.(from);
  const limit = maxSteps === undefined ? {} : { maxSteps };
  const { checkpointId } = request;
  if (request.action === "edit") {
    const { update, asNode } = rules.editOf(from, request.edit);
    const edited = await graph.updateState(threadId, update, {
      checkpointer,
      ...(asNode === undefined ? {} : { asNode }),
      ...(checkpointId === undefined ? {} : { checkpointId }),
    });
    return { graph, input: null, ...limit, thread: { threadId, checkpointer, checkpointId: edited.id } };
  }
  const paused = rules.pausedAt(from);
  if (paused.length > 0 && request.action !== "approve")
    throw new InspectError(
      "BAD_REQUEST",
      `inspect: thread ${quote(threadId)} is paused before ${paused.join(", ")}: approve it, or edit it.`,
    );
  if (from.next.length === 0)
    throw new InspectError(
      "BAD_REQUEST",
      `inspect: checkpoint ${from.id} of thread ${quote(threadId)} reached END: there is nothing to resume; pick an earlier checkpoint to fork from.`,
    );
  return { graph, input: null, ...limit, thread: { threadId, checkpointer, ...(checkpointId === undefined ? {} : { checkpointId }) } };
}
