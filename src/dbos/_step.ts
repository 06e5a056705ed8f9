/**
 * A task run as a DBOS step: the node under its policies (`runTask`: cache, attempts, timeouts) inside
 * one `DBOS.runStep`, so the step's recorded output is the node's final update. A workflow that DBOS
 * replays after a crash gets the recorded update back and never runs the node again; only a node that
 * was still running when its process died runs again (at least once for the node in flight).
 *
 * The step records an envelope, not the bare update: a failure is recorded as data (its code and
 * message), so a replayed superstep fails with the same code and message as the live one, and the
 * `Run` driving the kernel sees the same settlements in both.
 */
import { DBOS } from "@dbos-inc/dbos-sdk";
import { GraphExecutionError } from "../errors.js";
import { ChildTaskFrame, DurableHost } from "./_child-frame.js";
import { RecordedError } from "./_recorded-error.js";
import { StepFailure, subgraphEntry, taskEntry, type State, type TaskRunner } from "../engine/_kernel.js";
import { InterruptError, type PendingInterrupt } from "../engine/index.js";
import { messageOf } from "../_describe.js";

/** What a step records: the node's update, how it failed, or the interrupts it paused at. */
export type StepEnvelope =
  | { readonly update: State }
  | { readonly failure: RecordedFailure }
  | { readonly paused: readonly PendingInterrupt[] };

/** A failure as a step records it. */
export interface RecordedFailure {
  readonly code: StepFailure["code"];
  readonly message: string;
  /** Whether the node read its signal: a sibling's failure may have cancelled it (see the kernel's `reportedFailure`). */
  readonly readSignal: boolean;
  /** Each attempt's error message, when a retry policy ran it several times. */
  readonly attempts?: readonly string[];
  /** A resume value the node's interrupt schema refused: the InterruptError, so a replay refuses it the same way. */
  readonly refusedResume?: { readonly message: string; readonly interruptId?: string };
  /** A subgraph node's own failure: its code, message and path. */
  readonly child?: { readonly code: GraphExecutionError["code"]; readonly message: string; readonly path: readonly string[] };
}

/**
 * The task runner of a DBOS run: each task one step, named after its node (a subgraph task: a child
 * workflow, see `_child-frame.ts`). DBOS numbers a workflow's
 * steps in the order they start, and the kernel starts a superstep's tasks in declaration order, so a
 * replay finds each task's record where it left it.
 */
export const durableTask: TaskRunner = (graph, task, state, context) => {
  // The task's interrupt frame, while its node runs: a node that called `interrupt()` is recorded as paused.
  const frame = taskEntry.frame();
  // A subgraph task is no step: its child runs as a child workflow, whose steps are the child's tasks. Under
  // a retry, timeout or cache policy it stays one step, so the policy's timers run inside it and not in the
  // workflow, where a replay would not see them again (its child then starts from START when resumed).
  if (
    frame !== undefined &&
    frame.host instanceof DurableHost &&
    !graph.policies.has(task.node) &&
    subgraphEntry.graphOf(graph.nodes.get(task.node)) !== undefined
  ) {
    const host = frame.host;
    return taskEntry.run(graph, task, state, context, new ChildTaskFrame(frame, host));
  }
  let live: unknown;
  const step = async (): Promise<StepEnvelope> => {
    try {
      const update = await taskEntry.run(graph, task, state, context);
      return frame?.paused === true ? { paused: [...frame.raised] } : { update };
    } catch (error) {
      if (frame?.paused === true) return { paused: [...frame.raised] };
      live = error;
      return { failure: recordFailure(error, context.readSignal) };
    }
  };
  return DBOS.runStep(step, { name: task.node }).then((recorded) => {
    if ("update" in recorded) return recorded.update;
    if ("paused" in recorded) {
      // Replayed after a crash, the node does not run again: the recorded interrupts pause the superstep again.
      if (frame !== undefined && !frame.paused) frame.replayPause(recorded.paused);
      return {};
    }
    // Replayed: the node had read its signal in the run that recorded it, so it counts as cancelled as it did then.
    if (recorded.failure.readSignal) void context.signal;
    throw live ?? reviveFailure(recorded.failure);
  });
};

function recordFailure(error: unknown, readSignal: boolean): RecordedFailure {
  if (!(error instanceof StepFailure)) return { code: "NODE_FAILED", message: messageOf(error), readSignal };
  const child = error.cause instanceof GraphExecutionError ? error.cause : undefined;
  const refused = error.cause instanceof InterruptError && error.cause.code === "INVALID_RESUME" ? error.cause : undefined;
  return {
    code: error.code,
    message: error.message,
    readSignal,
    ...(error.attempts === undefined ? {} : { attempts: error.attempts.map(messageOf) }),
    ...(child === undefined ? {} : { child: { code: child.code, message: child.message, path: child.path } }),
    ...(refused === undefined ? {} : { refusedResume: { message: refused.message, ...interruptIdOf(refused) } }),
  };
}

/** The failure a replayed step throws: the recorded code and message; the original error stayed in the process that ran it. */
function reviveFailure(recorded: RecordedFailure): StepFailure {
  const { refusedResume } = recorded;
  const cause =
    refusedResume !== undefined
      ? new InterruptError("INVALID_RESUME", refusedResume.message, interruptIdOf(refusedResume))
      : recorded.child === undefined
        ? new RecordedError(recorded.message)
        : new GraphExecutionError(recorded.child.code, recorded.child.message, {
            node: recorded.child.path[0] ?? "",
            state: {},
            trace: [],
            path: recorded.child.path,
          });
  const failure = new StepFailure(recorded.code, recorded.message, { cause });
  if (recorded.attempts !== undefined) failure.attempts = recorded.attempts.map((message) => new RecordedError(message));
  return failure;
}

function interruptIdOf(error: { readonly interruptId?: string | undefined }): { interruptId?: string } {
  return error.interruptId === undefined ? {} : { interruptId: error.interruptId };
}
