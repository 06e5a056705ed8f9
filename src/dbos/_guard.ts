/**
 * DBOS calls, with DBOS's and the driver's faults turned into coded {@link DBOSRunError}s: a raw `pg`
 * or DBOS error never reaches the caller.
 */
import { DBOS } from "@dbos-inc/dbos-sdk";
import { GraphError } from "../errors.js";
import { messageOf } from "../_describe.js";
import { DBOSRunError } from "./errors.js";

/** Refuses to go on in a process where DBOS is not launched (`DBOS_NOT_LAUNCHED`). */
export function ensureLaunched(api: string): void {
  if (DBOS.isInitialized()) return;
  throw new DBOSRunError(
    "DBOS_NOT_LAUNCHED",
    `${api}: DBOS is not launched in this process; call DBOS.setConfig({ name, systemDatabaseUrl }) and await DBOS.launch() first.`,
  );
}

/** DBOS's errors that mean it stopped the run itself (by name: DBOS does not export their classes). */
const STOPPED = new Set(["DBOSAwaitedWorkflowCancelledError", "DBOSWorkflowCancelledError", "DBOSMaxRecoveryAttemptsExceededError"]);

/** Runs a DBOS call; its failure becomes a coded error naming `api` and the run. */
export async function dbosCall<T>(api: string, workflowId: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof GraphError) throw error;
    const name = error instanceof Error ? error.name : "";
    if (name === "DBOSNonExistentWorkflowError") {
      throw new DBOSRunError("DBOS_RUN_NOT_FOUND", `${api}: no run has the workflow id "${workflowId}".`, { workflowId, cause: error });
    }
    if (STOPPED.has(name)) {
      throw new DBOSRunError("DBOS_RUN_STOPPED", `${api}: DBOS stopped run "${workflowId}": ${messageOf(error)}`, {
        workflowId,
        cause: error,
      });
    }
    if (!DBOS.isInitialized()) {
      throw new DBOSRunError("DBOS_NOT_LAUNCHED", `${api}: DBOS was shut down while run "${workflowId}" was awaited; launch it again.`, {
        workflowId,
        cause: error,
      });
    }
    throw new DBOSRunError(
      "DBOS_UNAVAILABLE",
      `${api}: DBOS could not reach or use its system database for run "${workflowId}": ${messageOf(error)}. Check that Postgres is up and systemDatabaseUrl is right.`,
      { workflowId, cause: error },
    );
  }
}
