/**
 * A task run under its node's policies: the cache first, then attempts, each with its own timeout,
 * retried as the kernel's `retryDecision` says, then the node's error handler if it failed for good
 * (`error-handler.ts`). Every engine (the mini engine, the XState machine, the
 * LangGraph wrappers) runs a node through `runTask`, so a policy means the same thing everywhere. A node
 * without a policy goes straight to `runNode`: no promise, no timer, no cost.
 */
import { cloneState } from "./clone.js";
import type { ExecutableGraph } from "./executable.js";
import type { ResolvedPolicy } from "./policies.js";
import { isThenable } from "../_thenable.js";
import { runNode, StepFailure, type State, type Task } from "./step.js";
import { retryDecision } from "./kernel/retry.js";
import { delayUnlessAborted, isAborted } from "./abortable.js";
import { restartTaskCalls } from "./interrupt-scope.js";
import { withErrorHandler } from "./error-handler.js";
import type { TaskContext } from "./task-context.js";

/**
 * Runs `task` on a copy of `state` under its node's policy. Rejects with the last attempt's failure,
 * which carries every attempt's error (`attempts`) when the node was retried.
 */
export function runTask(graph: ExecutableGraph, task: Task, state: State, context: TaskContext): State | Promise<State> {
  // Most graphs declare no policy: the empty table is not searched on every step.
  const policy = graph.policies.size === 0 ? undefined : graph.policies.get(task.node);
  if (policy === undefined) {
    const observation = context.observation;
    if (observation?.attempt === undefined) return runNode(graph, task.node, state, task, context);
    return observation.attempt(context, () => runNode(graph, task.node, state, task, context));
  }
  if (policy.errorHandler !== undefined)
    return withErrorHandler(graph, task, state, context, policy.errorHandler, () => policed(graph, task, state, context, policy));
  return policed(graph, task, state, context, policy);
}

/** A task under its cache, attempts and timeouts: what an error handler, if any, stands behind. */
function policed(graph: ExecutableGraph, task: Task, state: State, context: TaskContext, policy: ResolvedPolicy): State | Promise<State> {
  if (policy.cache !== undefined) return cached(graph, task, state, context, policy, policy.cache);
  return attempts(graph, task, state, context, policy);
}

/**
 * The attempts of a task. The first runs at once, and a synchronous node that succeeds returns
 * synchronously: a policy costs a synchronous run no promise and no timer. A failure goes on to
 * {@link retried}.
 */
function attempts(graph: ExecutableGraph, task: Task, state: State, first: TaskContext, policy: ResolvedPolicy): State | Promise<State> {
  let pending: State | Promise<State>;
  try {
    pending = attemptOnce(graph, task, state, first, 1, policy.timeout);
  } catch (failure) {
    return retried(graph, task, state, first, policy, failure);
  }
  if (!isThenable(pending)) return pending;
  return pending.then(undefined, (failure: unknown) => retried(graph, task, state, first, policy, failure));
}

/** After the first attempt failed: wait and try again while the kernel's `retryDecision` says so. */
async function retried(
  graph: ExecutableGraph,
  task: Task,
  state: State,
  first: TaskContext,
  policy: ResolvedPolicy,
  firstFailure: unknown,
): Promise<State> {
  const errors: unknown[] = [];
  let failure = firstFailure;
  for (let attempt = 1; ; attempt++) {
    errors.push(failure instanceof StepFailure && failure.code === "NODE_FAILED" ? failure.cause : failure);
    const decision = retryDecision(policy.retry, attempt, failure, Math.random);
    if (!decision.retry) throw withAttempts(failure, errors, policy);
    first.observation?.retry?.({ node: task.node, superstep: first.superstep, attempt, delay: decision.delay, error: failure });
    // The wait ends early when the run aborts or a sibling fails: the node then fails with what it
    // failed with on its own (the run's abort is reported by the driver, which watches the run's signal).
    if (!(await delayUnlessAborted(decision.delay, first.superstepSignal))) {
      // Cancelled while waiting to try again: the node did not fail for good on its own, so it is never
      // the failure a superstep reports (reading the signal marks it so), and it keeps no write.
      void first.signal;
      throw withAttempts(failure, errors, policy);
    }
    // A new attempt runs the node from its start: its interrupt() calls count from the first again.
    restartTaskCalls();
    try {
      return await attemptOnce(graph, task, state, first, attempt + 1, policy.timeout);
    } catch (next) {
      failure = next;
    }
  }
}

/** A cached task: the store first; on a miss, the attempts, and the update stored. */
async function cached(
  graph: ExecutableGraph,
  task: Task,
  state: State,
  first: TaskContext,
  policy: ResolvedPolicy,
  cache: NonNullable<ResolvedPolicy["cache"]>,
): Promise<State> {
  const key = keyOf(graph, task, state, cache);
  const hit = await graph.cacheStore.get(key);
  if (hit !== undefined) {
    first.observation?.cacheHit?.(first);
    return cloneState(hit);
  }
  const update = await attempts(graph, task, state, first, policy);
  await graph.cacheStore.set(key, cloneState(update), cache.ttl);
  return update;
}

/**
 * One attempt: its own context (and copy of the state). With a timeout, an async attempt is abandoned at
 * its deadline (its signal aborts, its late result is discarded); the deadline's AbortController is made
 * only if the node reads its signal.
 */
function attemptOnce(
  graph: ExecutableGraph,
  task: Task,
  state: State,
  first: TaskContext,
  attempt: number,
  timeout: number | undefined,
): State | Promise<State> {
  let controller: AbortController | undefined;
  let expired: StepFailure | undefined;
  const deadline =
    timeout === undefined
      ? undefined
      : (): AbortSignal => {
          controller ??= new AbortController();
          // Read only after the deadline passed: the signal must still say so.
          if (expired !== undefined && !isAborted(controller.signal)) controller.abort(expired);
          return controller.signal;
        };
  const context = attempt === 1 && deadline === undefined ? first : first.forAttempt(attempt, deadline);
  const run = (): State | Promise<State> => {
    const pending = runNode(graph, task.node, state, task, context);
    if (!isThenable(pending) || timeout === undefined) return pending;
    return withTimeout(pending, task, attempt, timeout, (failure) => {
      expired = failure;
      controller?.abort(failure);
    });
  };
  const observation = first.observation;
  return observation?.attempt === undefined ? run() : observation.attempt(context, run);
}

/** An attempt's result, or NODE_TIMEOUT once `timeout` ms passed (`expire` is told first, so the node's signal says why). */
function withTimeout(
  pending: Promise<State>,
  task: Task,
  attempt: number,
  timeout: number,
  expire: (failure: StepFailure) => void,
): Promise<State> {
  return new Promise<State>((resolve, reject) => {
    const timer = setTimeout(() => {
      const expired = new StepFailure(
        "NODE_TIMEOUT",
        `node "${task.node}" took longer than its timeout of ${timeout} ms (attempt ${attempt}); its result, if any, is discarded.`,
      );
      expire(expired);
      reject(expired);
    }, timeout);
    pending.then(
      (update) => {
        clearTimeout(timer);
        resolve(update);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

function keyOf(graph: ExecutableGraph, task: Task, state: State, cache: NonNullable<ResolvedPolicy["cache"]>): string {
  let key: unknown;
  try {
    key = (cache.key as (state: unknown) => unknown)(cloneState(task.sent ? task.input : state));
  } catch (error) {
    throw new StepFailure(
      "NODE_FAILED",
      `the cache key of node "${task.node}" threw: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  if (typeof key !== "string") {
    throw new StepFailure(
      "NODE_FAILED",
      `the cache key of node "${task.node}" must be a string; got ${typeof key}. Return a string from cache.key(state).`,
    );
  }
  // The graph's spec hash and the node's name keep entries of a changed graph or another node apart.
  return `${graph.specHash}:${task.node}:${key}`;
}

/** The last failure, carrying every attempt's error when there were several. */
function withAttempts(failure: unknown, errors: readonly unknown[], policy: ResolvedPolicy): unknown {
  if (policy.retry === undefined || errors.length < 2 || !(failure instanceof StepFailure)) return failure;
  const retried = new StepFailure(
    failure.code,
    `${failure.message} (attempt ${errors.length} of ${policy.retry.maxAttempts}; every attempt failed)`,
    {
      cause: failure.cause,
    },
  );
  retried.attempts = errors;
  return retried;
}
