/**
 * Durable runs of a registered graph on DBOS: start one (at once, or on a DBOS queue), wait for where
 * it stops (END, a failure, an interrupt), resume a paused one, and find a run started elsewhere. The
 * results and errors are the mini engine's, so code that handles `graph.invoke` handles these.
 */
import { DBOS } from "@dbos-inc/dbos-sdk";
import { InvalidOptionError, InvalidUpdateError } from "../errors.js";
import { checkGoto, checkedStart, resumeAnswers, runOptionsOf, updateSource } from "../engine/_kernel.js";
import { Command, isPlainObject, type AnyCommand, type CompiledGraph, type RunOptions, type RunResult } from "../engine/index.js";
import { START } from "../spec.js";
import { dbosCall, ensureLaunched } from "./_guard.js";
import { reviveError, type DBOSInterrupt, type Outcome } from "./_outcome.js";
import { API, LATEST_EVENT, pauseEvent, resumeTopic, type ResumeMessage, type StoredOptions } from "./_workflow.js";
import { DBOSRunError } from "./errors.js";
import { registrationOf } from "./register.js";

/** Options of a durable run: the mini engine's bounds, the run's workflow id, and the queue it waits on. */
export interface DBOSRunOptions extends Omit<RunOptions, "signal"> {
  /**
   * The run's DBOS workflow id: starting twice with one id is one run (the second start attaches to
   * it), which is what makes a retried request safe. Nodes read it as `context.threadId`.
   */
  readonly workflowId: string;
  /**
   * A DBOS queue (registered with `DBOS.registerQueue(name, { workerConcurrency })`) the run waits on
   * until a worker process takes it, within the queue's concurrency limits. Default: it starts at once
   * in this process.
   */
  readonly queue?: string;
}

/** What a durable run resolves with: the mini engine's result, its workflow id, and whether it paused. */
export type DBOSRunResult<S> = RunResult<S> & { readonly workflowId: string } & (
    | { readonly status: "done" }
    | { readonly status: "interrupted"; readonly interrupt: DBOSInterrupt }
  );

/** A started durable run. */
export interface DBOSRun<S> {
  readonly workflowId: string;
  /** Waits for the run's next stop: END or an interrupt (resolves), or a failure (rejects with the mini engine's error). */
  result(): Promise<DBOSRunResult<S>>;
}

/** The state type of a compiled graph (a conditional type infers it where a bare `CompiledGraph<S>` parameter does not). */
type StateOf<G> = G extends CompiledGraph<infer S> ? S : never;

/**
 * What a paused run is resumed with: nothing (go on), answers to its nodes' `interrupt()` calls, an
 * update applied as `graph.updateState` applies one, and `goto`. A `Command` (`approval.resume(answer)`
 * of a `defineInterrupt`, typed) says the same as on a thread.
 */
export interface DBOSResume<S> {
  /**
   * The answer to the run's pending `interrupt()` call; several pending: a map from interrupt id to
   * answer (a map naming some of them resumes those, and the run pauses again for the rest).
   */
  readonly resume?: unknown;
  /**
   * Merged through the reducers before the run goes on. At `interruptBefore` / `interruptAfter` it
   * counts as if `asNode` had returned it; inside nodes it is merged before they run again.
   */
  readonly update?: Partial<S>;
  /**
   * At a static interrupt, the node the update counts as: its router runs again on the updated state,
   * so what runs next is what follows it. Default: the node that ran last (several in the last
   * superstep: pass one). Not for a run paused inside nodes.
   */
  readonly asNode?: string;
  /** The nodes to run next instead of the pending ones (and their interrupts). */
  readonly goto?: string | readonly string[];
}

/**
 * Starts `graph` as a durable DBOS workflow and returns its handle at once; with `queue`, the run waits
 * on that queue for a worker. Each node execution is a DBOS step, so after a crash the run goes on in
 * any process (DBOS recovers it) and a completed node never runs again.
 *
 * @throws DBOSRunError (`DBOS_NOT_LAUNCHED`, `DBOS_GRAPH_NOT_REGISTERED`, `DBOS_UNAVAILABLE`);
 * GraphExecutionError `INVALID_INPUT` for an input the graph refuses; InvalidOptionError for bad options.
 * @example
 * ```ts
 * const runs = await Promise.all(inputs.map((input, i) => startOnDBOS(graph, input, { workflowId: `report-${i}`, queue: "reports" })));
 * const results = await Promise.all(runs.map((run) => run.result()));
 * ```
 */
export async function startOnDBOS<S extends object>(graph: CompiledGraph<S>, input: S, options: DBOSRunOptions): Promise<DBOSRun<S>> {
  const registered = registrationOf(graph, API);
  const { workflowId, queue, stored } = checkOptions(options);
  // As a threaded invoke: an input that is not JSON is refused before anything starts (DBOS would store it as null),
  // and a state schema's refusal too, before DBOS records anything. The workflow starts from the schema's output,
  // marked checked, so its run does not validate it again.
  const checked = checkedStart(registered.executable, input, API, true);
  ensureLaunched(API);
  const handle = await dbosCall(API, workflowId, () =>
    DBOS.startWorkflow(registered.workflow, { workflowID: workflowId, ...(queue === undefined ? {} : { queueName: queue }) })(checked, {
      ...stored,
      checked: true,
    }),
  );
  return runHandle<S>(handle.workflowID, 0);
}

/**
 * Runs `graph` as a durable DBOS workflow and resolves where it stops: END (`status: "done"`, the same
 * state, trace, steps and routes as `graph.invoke`), or an interrupt (`status: "interrupted"`: resume
 * it with {@link resumeOnDBOS}). A failure rejects with the mini engine's error.
 *
 * @example
 * ```ts
 * registerOnDBOS(graph, { name: "report" }); // before DBOS.launch(), in every worker
 * await DBOS.launch();
 * const { state, trace } = await runOnDBOS(graph, initialReportState(), { workflowId: "report-42" });
 * ```
 */
export async function runOnDBOS<S extends object>(graph: CompiledGraph<S>, input: S, options: DBOSRunOptions): Promise<DBOSRunResult<S>> {
  return (await startOnDBOS(graph, input, options)).result();
}

/**
 * Resumes a run paused at an interrupt (answering its nodes' `interrupt()` calls, optionally merging an
 * update first) and resolves at its next stop. The message is sent once per pause: resuming a run
 * twice for the same pause is refused.
 *
 * @throws DBOSRunError `DBOS_RUN_NOT_FOUND` for an unknown workflow id, `DBOS_NOT_INTERRUPTED` for a
 * run that is not paused; InterruptError for answers that do not fit the pending interrupts
 * (`NO_PENDING_INTERRUPT`, `UNKNOWN_INTERRUPT`, `AMBIGUOUS_RESUME`); InvalidOptionError for an update
 * that is not a plain object, an unknown `asNode` or `goto` node.
 * @example
 * ```ts
 * const paused = await runOnDBOS(graph, input, { workflowId: "review-7" }); // status "interrupted"
 * const done = await resumeOnDBOS(graph, "review-7", approval.resume({ approved: true }));
 * const edited = await resumeOnDBOS(other, "publish-3", { update: { approved: true } });
 * ```
 */
export async function resumeOnDBOS<G extends CompiledGraph<object>>(
  graph: G,
  workflowId: string,
  command: DBOSResume<StateOf<G>> | AnyCommand = {},
): Promise<DBOSRunResult<StateOf<G>>> {
  const api = "resumeOnDBOS";
  const registered = registrationOf(graph, api);
  checkWorkflowId(api, workflowId);
  const resume = resumeOf(command);
  if (resume.goto !== undefined) checkGoto(api, registered.executable, resume.goto);
  if (resume.update !== undefined && !isPlainObject(resume.update)) {
    throw new InvalidOptionError(`${api}: update must be a plain object of fields to merge; got ${typeof resume.update}.`);
  }
  const { asNode } = resume;
  if (asNode !== undefined && !registered.executable.nodes.has(asNode)) {
    throw new InvalidOptionError(
      `${api}: asNode "${String(asNode)}" is not a node of this graph; use one of ${[...registered.executable.nodes.keys()].join(", ")}.`,
    );
  }
  ensureLaunched(api);
  await ensureExists(api, workflowId);
  const pause = await dbosCall(api, workflowId, () => DBOS.getEvent<number>(workflowId, LATEST_EVENT, { timeoutSeconds: 0 }));
  const outcome =
    pause === null
      ? null
      : await dbosCall(api, workflowId, () => DBOS.getEvent<Outcome>(workflowId, pauseEvent(pause), { timeoutSeconds: 0 }));
  if (pause === null || outcome?.status !== "interrupted") {
    throw new DBOSRunError(
      "DBOS_NOT_INTERRUPTED",
      `${api}: run "${workflowId}" is not paused at an interrupt; only a paused run can be resumed.`,
      {
        workflowId,
      },
    );
  }
  const message = resumeMessage(api, workflowId, resume, outcome, registered.executable.fields);
  // The idempotency key makes a second resume of the same pause a no-op in DBOS, not a second message.
  await dbosCall(api, workflowId, () => DBOS.send(workflowId, message, resumeTopic(pause), `${workflowId}:resume:${pause}`));
  return runHandle<StateOf<G>>(workflowId, pause + 1, true).result();
}

/**
 * The handle of a run started elsewhere (another process, or before a restart), to wait for its result.
 *
 * @throws DBOSRunError `DBOS_RUN_NOT_FOUND` when no run has this id.
 * @example
 * ```ts
 * const run = await retrieveOnDBOS(graph, "report-42");
 * const { state } = await run.result();
 * ```
 */
export async function retrieveOnDBOS<G extends CompiledGraph<object>>(graph: G, workflowId: string): Promise<DBOSRun<StateOf<G>>> {
  const api = "retrieveOnDBOS";
  registrationOf(graph, api);
  checkWorkflowId(api, workflowId);
  ensureLaunched(api);
  await ensureExists(api, workflowId);
  const latest = await dbosCall(api, workflowId, () => DBOS.getEvent<number>(workflowId, LATEST_EVENT, { timeoutSeconds: 0 }));
  return runHandle<StateOf<G>>(workflowId, latest ?? 0);
}

/** A Command as the options it stands for, `goto` as a list. */
function resumeOf<S>(command: DBOSResume<S> | AnyCommand): DBOSResume<S> & { readonly goto?: readonly string[] } {
  const { resume, update, goto } = command;
  if (Array.isArray(goto) && goto.some((target) => typeof target !== "string")) {
    throw new InvalidOptionError("resumeOnDBOS: goto takes node names; a Send goes from a node's Command, not from a resume.");
  }
  const asNode = command instanceof Command ? undefined : command.asNode;
  return {
    ...(resume === undefined ? {} : { resume }),
    ...(update === undefined ? {} : { update: update as Partial<S> }),
    ...(asNode === undefined ? {} : { asNode }),
    ...(goto === undefined ? {} : { goto: typeof goto === "string" ? [goto] : [...(goto as readonly string[])] }),
  };
}

/**
 * The message for `resume`. At a static interrupt the update counts as `asNode`, else as the node that
 * ran last (as `updateState` says); inside nodes the answers are checked against the pending interrupts.
 */
function resumeMessage<S>(
  api: string,
  workflowId: string,
  resume: DBOSResume<S> & { readonly goto?: readonly string[] },
  paused: Extract<Outcome, { status: "interrupted" }>,
  fields: ReadonlySet<string> | undefined,
): ResumeMessage {
  const goto = resume.goto === undefined ? {} : { goto: resume.goto };
  const inside = paused.interrupt.when === "during";
  const owner = { subject: `run "${workflowId}"`, continueWith: `resumeOnDBOS(graph, "${workflowId}") without a resume value` };
  // Answers first: a resume for a run paused at interruptBefore/After is NO_PENDING_INTERRUPT, as on a thread.
  const resumes =
    resume.resume === undefined ? {} : { resumes: resumeAnswers(api, owner, paused.interrupt.interrupts ?? [], resume.resume) };
  if (inside && resume.asNode !== undefined) {
    throw new InvalidOptionError(
      `${api}: asNode applies to a run paused before or after a node; run "${workflowId}" paused inside ${paused.interrupt.nodes.join(", ")}, ` +
        `which run again when resumed. Pass { resume } (and an update, merged before they run) without asNode.`,
    );
  }
  if (resume.update === undefined) return { ...(resume.asNode === undefined ? {} : { asNode: resume.asNode }), ...resumes, ...goto };
  const update = resume.update as Record<string, unknown>;
  const undeclared = fields === undefined ? [] : Object.keys(update).filter((key) => !fields.has(key));
  if (undeclared.length > 0) {
    throw new InvalidUpdateError(
      `${api}: the update has fields the graph does not declare: ${undeclared.join(", ")}. Update only declared fields.`,
      { node: resume.asNode ?? paused.last[0] ?? START, state: paused.run.state, trace: paused.run.trace },
      "UNDECLARED_FIELD",
    );
  }
  // Inside nodes the update is merged before they run again: it counts as no node.
  if (inside) return { update, ...resumes, ...goto };
  const source = updateSource(resume.asNode, paused.last);
  if (source.kind === "ambiguous") {
    const { state, trace } = paused.run;
    throw new InvalidUpdateError(
      `${api}: the last superstep ran several nodes (${source.nodes.join(", ")}), so which one the update comes from is ambiguous. Pass { asNode } naming one of them.`,
      { node: source.nodes[0] as string, state, trace },
      "AMBIGUOUS_UPDATE",
    );
  }
  return { update, ...(source.kind === "node" ? { asNode: source.node } : {}), ...resumes, ...goto };
}

/** How long one wait for a paused run's event lasts before the run's status is checked again. */
const EVENT_WAIT_SECONDS = 30;

/** How often a run started in another process is polled for its result. */
const POLLING_INTERVAL_MS = 50;

/**
 * A run's handle: it waits for the event of stop `pause`, not for the workflow's result, since any run
 * may pause at a node's `interrupt()` call and then its workflow does not return until resumed.
 */
export function runHandle<S>(workflowId: string, pause: number, afterResume = false): DBOSRun<S> {
  const result = async (): Promise<DBOSRunResult<S>> => {
    const outcome = await nextStop(workflowId, pause);
    if (outcome.status === "failed") throw reviveError(outcome.error, workflowId);
    // The resume was refused and the run paused again where it stood: resume it again with a fitting value.
    if (afterResume && outcome.status === "interrupted" && outcome.refused !== undefined) throw reviveError(outcome.refused, workflowId);
    const { run } = outcome;
    const base = { ...run, trace: [...run.trace], steps: [...run.steps], routes: [...run.routes], workflowId };
    return (outcome.status === "done"
      ? { ...base, status: "done" }
      : { ...base, status: "interrupted", interrupt: outcome.interrupt }) as unknown as DBOSRunResult<S>;
  };
  return { workflowId, result };
}

function finalOutcome(workflowId: string): Promise<Outcome> {
  const handle = DBOS.retrieveWorkflow<Outcome>(workflowId);
  return dbosCall(API, workflowId, () => handle.getResult({ pollingIntervalMs: POLLING_INTERVAL_MS }));
}

/** The event of stop `pause`, checking between waits that DBOS has not stopped the run itself. */
async function nextStop(workflowId: string, pause: number): Promise<Outcome> {
  for (;;) {
    const outcome = await dbosCall(API, workflowId, () =>
      DBOS.getEvent<Outcome>(workflowId, pauseEvent(pause), { timeoutSeconds: EVENT_WAIT_SECONDS }),
    );
    if (outcome !== null) return outcome;
    const status = await dbosCall(API, workflowId, () => DBOS.getWorkflowStatus(workflowId));
    if (status !== null && status.status !== "PENDING" && status.status !== "ENQUEUED") return finalOutcome(workflowId);
  }
}

export async function ensureExists(api: string, workflowId: string): Promise<void> {
  const status = await dbosCall(api, workflowId, () => DBOS.getWorkflowStatus(workflowId));
  if (status === null) {
    throw new DBOSRunError(
      "DBOS_RUN_NOT_FOUND",
      `${api}: no run has the workflow id "${workflowId}"; start it with runOnDBOS or startOnDBOS.`,
      {
        workflowId,
      },
    );
  }
}

export function checkWorkflowId(api: string, workflowId: unknown): asserts workflowId is string {
  if (typeof workflowId !== "string" || workflowId.length === 0) {
    throw new InvalidOptionError(`${api}: workflowId must be a non-empty string (the run's DBOS workflow id); got ${String(workflowId)}.`);
  }
}

export function checkOptions(options: DBOSRunOptions, api = API): { workflowId: string; queue: string | undefined; stored: StoredOptions } {
  if (typeof options !== "object" || options === null) {
    throw new InvalidOptionError(`${api}: options must be an object with a workflowId; got ${String(options)}.`);
  }
  checkWorkflowId(api, options.workflowId);
  const { queue, maxSteps, recursionLimit, maxConcurrency } = options;
  if (queue !== undefined && (typeof queue !== "string" || queue.length === 0)) {
    throw new InvalidOptionError(`${api}: queue must be the name of a DBOS queue (DBOS.registerQueue); got ${String(queue)}.`);
  }
  runOptionsOf({ maxSteps, recursionLimit, maxConcurrency }, api);
  const stored: StoredOptions = {
    ...(maxSteps === undefined ? {} : { maxSteps }),
    ...(recursionLimit === undefined ? {} : { recursionLimit }),
    ...(maxConcurrency === undefined ? {} : { maxConcurrency }),
  };
  return { workflowId: options.workflowId, queue, stored };
}
