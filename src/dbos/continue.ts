/**
 * Continuing, on a new deploy, a run an older deploy paused. DBOS recovers a workflow only in a process
 * of the application version that started it, and `DBOS.forkWorkflow(id, step, { applicationVersion })`
 * replays the old workflow's recorded steps with the new code, which holds only while the graph's nodes
 * and state are unchanged. So a worker of the new version continues a paused run from its last stop
 * instead: the stop, read as a checkpoint of the graph version that recorded it, goes through the
 * graph's migrations (`compile({ version, migrations })`, the rules threads follow), the old workflow
 * is cancelled, and a new workflow of this version starts where it stood and pauses there.
 */
import { DBOS } from "@dbos-inc/dbos-sdk";
import { continuedCheckpoint } from "../engine/_kernel.js";
import type { CompiledGraph } from "../engine/index.js";
import { dbosCall, ensureLaunched } from "./_guard.js";
import type { Outcome } from "./_outcome.js";
import { continuedFrom, recordedCheckpoint, type PausedOutcome } from "./_paused-at.js";
import { LATEST_EVENT, pauseEvent } from "./_workflow.js";
import { DBOSRunError } from "./errors.js";
import { registrationOf } from "./register.js";
import { checkOptions, checkWorkflowId, ensureExists, runHandle, type DBOSRunOptions, type DBOSRunResult } from "./run.js";

const API = "continueOnDBOS";

/** The state type of a compiled graph. */
type StateOf<G> = G extends CompiledGraph<infer S> ? S : never;

/**
 * Continues on `graph` (this worker's version) the run `workflowId`, paused at an interrupt by a worker
 * of an older application version, which DBOS will not recover here. Its last stop is migrated through
 * the graph's migrations (state, node map, interrupt ids, kept writes: as a thread of an older graph
 * version is), the old run is cancelled, and a new run of this version, `options.workflowId`, starts
 * where it stood and pauses there: resolves with that pause, to answer with {@link resumeOnDBOS} on the
 * new id. Its trace and routes are the whole run's, in this version's node names; its steps start here.
 * Calling it again for the same two ids returns the same new run. A refused migration cancels and
 * starts nothing.
 *
 * @throws PersistenceError `UNMAPPED_RESUME_POINT`, `MIGRATION_MISSING`, `MIGRATION_FAILED`,
 * `GRAPH_VERSION_NEWER`, `INCOMPATIBLE_CHECKPOINT`, as a thread's resume; DBOSRunError
 * `DBOS_RUN_NOT_FOUND`, `DBOS_NOT_INTERRUPTED` (the run is not paused), `DBOS_CANNOT_CONTINUE` (another
 * graph's run, a stop recorded before this release, or a pause inside a subgraph).
 * @example
 * ```ts
 * // In a worker of version 2 (DBOS.setConfig({ applicationVersion: "v2" })), graph registered under the old name:
 * const paused = await continueOnDBOS(graph, "review-7", { workflowId: "review-7.v2" });
 * const done = await resumeOnDBOS(graph, "review-7.v2", { resume: true });
 * ```
 */
export async function continueOnDBOS<G extends CompiledGraph<object>>(
  graph: G,
  workflowId: string,
  options: DBOSRunOptions,
): Promise<DBOSRunResult<StateOf<G>>> {
  const registered = registrationOf(graph, API);
  checkWorkflowId(API, workflowId);
  const next = checkOptions(options, API);
  if (next.workflowId === workflowId) {
    throw new DBOSRunError(
      "DBOS_CANNOT_CONTINUE",
      `${API}: the new run needs its own workflow id; "${workflowId}" is the run it continues. Pass another, e.g. "${workflowId}.v${registered.executable.stamp.version}".`,
      { workflowId },
    );
  }
  ensureLaunched(API);
  await ensureExists(API, workflowId);
  // Called again after it started the new run (a retry after a crash): that run, as it stands.
  const started = await dbosCall(API, next.workflowId, () => DBOS.getWorkflowStatus(next.workflowId));
  if (started !== null) return runHandle<StateOf<G>>(next.workflowId, 0).result();
  const status = await dbosCall(API, workflowId, () => DBOS.getWorkflowStatus(workflowId));
  const name = `tsg:${registered.name}`;
  if (status !== null && status.workflowName !== name) {
    throw new DBOSRunError(
      "DBOS_CANNOT_CONTINUE",
      `${API}: run "${workflowId}" is a run of "${status.workflowName}", and this graph is registered as "${name}"; continue it with the graph registered under its name.`,
      { workflowId },
    );
  }
  const stop = await lastStop(workflowId, status?.status);
  const at = stop.at;
  if (at === undefined || (stop.interrupt.interrupts ?? []).some((pending) => pending.ns !== undefined)) {
    const why = at === undefined ? "its stop was recorded by a release that did not record where it stood" : "it paused inside a subgraph";
    throw new DBOSRunError(
      "DBOS_CANNOT_CONTINUE",
      `${API}: run "${workflowId}" cannot continue on another version: ${why}. Finish it on a worker of the version that started it.`,
      { workflowId },
    );
  }
  const from = continuedFrom(
    workflowId,
    stop,
    at,
    continuedCheckpoint(API, registered.executable, recordedCheckpoint(workflowId, stop, at)),
  );
  // Cancelled first, so no worker of the old version resumes it meanwhile; a crash before the start below is
  // retried by calling this again (a cancelled run whose last stop is a pause continues as a paused one).
  await dbosCall(API, workflowId, () => DBOS.cancelWorkflow(workflowId, { cancelChildren: true }));
  const { queue, stored } = next;
  await dbosCall(API, next.workflowId, () =>
    DBOS.startWorkflow(registered.workflow, { workflowID: next.workflowId, ...(queue === undefined ? {} : { queueName: queue }) })(
      from.snapshot.state,
      stored,
      from,
    ),
  );
  return runHandle<StateOf<G>>(next.workflowId, 0).result();
}

/**
 * What DBOS says of a paused run: waiting in a worker (PENDING), put back on its queue by a worker that
 * shut down (ENQUEUED, for a worker of its application version only), or cancelled by a continuation
 * that did not finish.
 */
const WAITING = new Set(["PENDING", "ENQUEUED", "CANCELLED"]);

/** The run's last stop, which must be a pause. */
async function lastStop(workflowId: string, status: string | undefined): Promise<PausedOutcome> {
  const latest = await dbosCall(API, workflowId, () => DBOS.getEvent<number>(workflowId, LATEST_EVENT, { timeoutSeconds: 0 }));
  const stop =
    latest === null
      ? null
      : await dbosCall(API, workflowId, () => DBOS.getEvent<Outcome>(workflowId, pauseEvent(latest), { timeoutSeconds: 0 }));
  if (stop?.status === "interrupted" && status !== undefined && WAITING.has(status)) return stop;
  throw new DBOSRunError(
    "DBOS_NOT_INTERRUPTED",
    `${API}: run "${workflowId}" is not paused at an interrupt (${status ?? "unknown"}${stop === null ? ", no stop recorded" : `, its last stop ${stop.status}`}); only a paused run can continue on another version.`,
    { workflowId },
  );
}
