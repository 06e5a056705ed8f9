/**
 * `typed-state-graph/dbos`: compiled graphs run as durable DBOS workflows. Each node execution is a
 * DBOS step and the merge runs in the workflow, so a run survives its process: DBOS recovers it in any
 * worker on the same Postgres, and a completed node never runs again. Runs wait on DBOS queues with
 * concurrency limits, and interrupts wait for a resume message. Requires `@dbos-inc/dbos-sdk` 5.
 *
 * @module typed-state-graph/dbos
 */

export { registerOnDBOS, type RegisterOnDBOSOptions } from "./register.js";
export {
  runOnDBOS,
  startOnDBOS,
  resumeOnDBOS,
  retrieveOnDBOS,
  type DBOSRun,
  type DBOSRunOptions,
  type DBOSRunResult,
  type DBOSResume,
} from "./run.js";
export { continueOnDBOS } from "./continue.js";
export type { DBOSInterrupt } from "./_outcome.js";
export { DBOSRunError, DBOS_RUN_CODES, type DBOSRunCode } from "./errors.js";
