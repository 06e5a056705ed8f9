/**
 * `invoke(new Command({ resume, update, goto }), { threadId })`: how a Command meets the thread's
 * pending interrupts. One value answers the one pending interrupt; a map from id to value answers
 * those it names (the others pause again); an update is merged through the reducers before the
 * interrupted nodes run again; `goto` replaces the next tasks (and with them the pending interrupts).
 */
import { InvalidOptionError, InvalidUpdateError } from "../../errors.js";
import { isPlainObject, cloneState } from "../clone.js";
import type { ExecutableGraph } from "../executable.js";
import { InterruptError } from "../interrupt-scope.js";
import type { AnyCommand } from "../interrupt.js";
import { gotoTask } from "../command-goto.js";
import { commit, type RunSnapshot } from "../kernel/superstep.js";
import { schedule } from "../kernel/advance.js";
import type { State } from "../step.js";
import { executionError } from "../run-checks.js";
import type { Checkpoint, JsonValue, PendingInterrupt } from "../checkpointer.js";
import { checkJson } from "../json-check.js";
import { jsonEqual } from "../json-equal.js";

/** Where a Command leaves the thread: the snapshot to restore, the resume values, and whether it changed anything to save first. */
export interface CommandStart {
  readonly snapshot: RunSnapshot;
  readonly resumes: Readonly<Record<string, JsonValue>>;
  readonly interrupts: readonly PendingInterrupt[];
  readonly changed: boolean;
  /** A resume given at a checkpoint that waits for no interrupt yet: the answer of the first `interrupt()` its tasks call. */
  readonly held?: { readonly value: JsonValue };
}

/**
 * Applies `command` to the checkpoint it resumes. `timeTravel`: the caller picked the checkpoint by id,
 * so one that waits for no interrupt yet but has tasks is a point before a pause (LangGraph keeps the
 * pause on that checkpoint; here it is the `interrupt` checkpoint after it, or not there at all on a
 * fork): the resume value is held for the first `interrupt()` call its tasks make.
 * Throws `InterruptError`, `InvalidUpdateError` or `InvalidOptionError`.
 */
export function commandStart(
  api: string,
  graph: ExecutableGraph,
  from: Checkpoint,
  snapshot: RunSnapshot,
  command: AnyCommand,
  timeTravel = false,
): CommandStart {
  const pending = from.interrupts ?? [];
  let resumes: Readonly<Record<string, JsonValue>> = from.resumes ?? {};
  let held: { readonly value: JsonValue } | undefined;
  if (command.resume !== undefined) {
    const owner = threadOwner(from.threadId);
    if (timeTravel && pending.length === 0 && from.tasks.length > 0) held = heldAnswer(api, owner, from.id, command.resume);
    else resumes = { ...resumes, ...resumeAnswers(api, owner, pending, command.resume) };
  }
  let start = snapshot;
  if (command.update !== undefined) start = { ...start, state: updated(api, graph, from, command.update) };
  if (command.goto === undefined) {
    const kept = { snapshot: start, resumes, interrupts: pending, changed: command.update !== undefined };
    return held === undefined ? kept : { ...kept, held };
  }
  const targets = command.goto.map(gotoTask);
  checkGoto(
    api,
    graph,
    targets.map((task) => task.node),
  );
  // goto replaces the pending tasks, and with them their interrupts and the answers given to them.
  const tasks = schedule(graph, targets);
  return { snapshot: { ...start, tasks }, resumes: {}, interrupts: [], changed: true };
}

/** Refuses a Command goto that names something other than a node of `graph` (`INVALID_OPTION`). */
export function checkGoto(api: string, graph: ExecutableGraph, goto: readonly string[]): void {
  const unknown = goto.filter((node) => !graph.nodes.has(node));
  if (unknown.length > 0) {
    throw new InvalidOptionError(
      `${api}: Command goto names ${unknown.map((n) => `"${n}"`).join(", ")}, which ${unknown.length > 1 ? "are not nodes" : "is not a node"} of this graph; use one of ${[...graph.nodes.keys()].join(", ")}.`,
    );
  }
}

/** Whose interrupts a resume answers, in messages: `thread "t1"`, and how to go on without answering. */
export interface ResumeOwner {
  readonly subject: string;
  readonly continueWith: string;
}

/** A thread as the owner of its interrupts. */
export function threadOwner(threadId: string): ResumeOwner {
  return { subject: `thread "${threadId}"`, continueWith: `invoke(null, { threadId: "${threadId}" }), or start it with an input` };
}

/**
 * The resume values by interrupt id: one value answers the one pending interrupt, a map answers those
 * it names. `owner` is whose interrupts they are, named in messages: a thread, by its id, or another
 * owner (a DBOS run). Throws `InterruptError` (`NO_PENDING_INTERRUPT`, `UNKNOWN_INTERRUPT`, `AMBIGUOUS_RESUME`).
 */
export function resumeAnswers(
  api: string,
  ownerOrThreadId: ResumeOwner | string,
  pending: readonly PendingInterrupt[],
  resume: unknown,
): Record<string, JsonValue> {
  const owner = typeof ownerOrThreadId === "string" ? threadOwner(ownerOrThreadId) : ownerOrThreadId;
  checkJson(resume, "resume", api);
  const ids = pending.map((p) => p.id);
  const listed = ids.map((id) => `"${id}"`).join(", ");
  if (pending.length === 0) {
    throw new InterruptError(
      "NO_PENDING_INTERRUPT",
      `${api}: ${owner.subject} has no pending interrupt to resume. Continue it with ${owner.continueWith}.`,
    );
  }
  if (isPlainObject(resume)) {
    const keys = Object.keys(resume);
    const named = keys.filter((key) => ids.includes(key));
    const strangers = keys.filter((key) => !ids.includes(key) && looksLikeId(key));
    if (strangers.length > 0) {
      throw new InterruptError(
        "UNKNOWN_INTERRUPT",
        `${api}: the resume map names ${strangers.map((id) => `"${id}"`).join(", ")}, which ${owner.subject} is not waiting for; its pending interrupts are ${listed}.`,
        { interruptId: strangers[0] as string },
      );
    }
    if (keys.length > 0 && named.length === keys.length) return resume as Record<string, JsonValue>;
    if (keys.length === 0 && pending.length > 1) {
      throw new InterruptError("AMBIGUOUS_RESUME", `${api}: the resume map is empty; name the interrupts it answers: ${listed}.`);
    }
  }
  if (pending.length > 1) {
    throw new InterruptError(
      "AMBIGUOUS_RESUME",
      `${api}: ${owner.subject} waits for ${pending.length} interrupts (${listed}), so one resume value is ambiguous. ` +
        `Pass a map from id to value: new Command({ resume: { [id]: value } }).`,
    );
  }
  return { [ids[0] as string]: resume as JsonValue };
}

/**
 * A resume at a checkpoint before a pause: one value, for the first interrupt its tasks raise. A map of
 * interrupt ids cannot name interrupts not raised yet (`UNKNOWN_INTERRUPT`).
 */
function heldAnswer(api: string, owner: ResumeOwner, checkpointId: string, resume: unknown): { readonly value: JsonValue } {
  checkJson(resume, "resume", api);
  const ids = isPlainObject(resume) ? Object.keys(resume).filter(looksLikeId) : [];
  if (ids.length > 0) {
    throw new InterruptError(
      "UNKNOWN_INTERRUPT",
      `${api}: the resume map names ${ids.map((id) => `"${id}"`).join(", ")}, but checkpoint "${checkpointId}" of ${owner.subject} waits for no interrupt yet. ` +
        `Pass one value: it answers the first interrupt() its nodes call.`,
      { interruptId: ids[0] as string },
    );
  }
  return { value: resume as JsonValue };
}

/** An interrupt id: `node:superstep:task:index`. */
function looksLikeId(key: string): boolean {
  return /:\d+:\d+:\d+$/.test(key);
}

/** A Command's update merged onto the checkpoint's state through the reducers, or the `InvalidUpdateError` it gets. */
export function updated(api: string, graph: ExecutableGraph, from: Pick<Checkpoint, "state" | "trace">, update: unknown): State {
  const context = { node: "Command", state: cloneState(from.state), trace: [...from.trace] };
  if (!isPlainObject(update)) {
    throw new InvalidUpdateError(`${api}: Command update must be a plain object of changed fields.`, context);
  }
  const undeclared = Object.keys(update).filter((key) => key === "__proto__" || (graph.fields !== undefined && !graph.fields.has(key)));
  if (undeclared.length > 0) {
    throw new InvalidUpdateError(
      `${api}: Command update has fields the state does not declare: ${undeclared.join(", ")}. Update only declared fields.`,
      context,
      "UNDECLARED_FIELD",
    );
  }
  checkJson(update, "update", api);
  const committed = commit(graph, from.state, [{ node: "Command", sent: false }], [cloneState(update)]);
  if (!committed.ok) throw executionError(api, committed.failure, context);
  return committed.state;
}

/**
 * The answers to keep when the superstep resumed from `from` failed: every one given for its
 * interrupts, except those an interrupt's schema refused; `undefined` when that is no more than `from`
 * already keeps (nothing new to save). LangGraph keeps a resume value as one of its task's pending
 * writes, so after a failure `invoke(null)` retries the node with its answer instead of asking again.
 */
export function answersToKeep(
  from: Pick<Checkpoint, "interrupts" | "resumes">,
  given: Readonly<Record<string, unknown>>,
  refused: ReadonlySet<string>,
): Record<string, JsonValue> | undefined {
  if (from.interrupts === undefined || from.interrupts.length === 0) return undefined;
  const kept: Record<string, JsonValue> = { ...from.resumes };
  let changed = false;
  for (const [id, value] of Object.entries(given)) {
    if (refused.has(id) || (Object.hasOwn(kept, id) && jsonEqual(kept[id], value))) continue;
    kept[id] = value as JsonValue;
    changed = true;
  }
  return changed ? kept : undefined;
}
