/**
 * The errors of the `typed-state-graph/dbos` entry. A graph's own failures on DBOS are the core's
 * errors (GraphExecutionError, GraphLimitError, InvalidUpdateError), as on the mini engine; these are
 * the faults of the durable run around it: DBOS not launched, its database unreachable, a run unknown.
 */
import { GraphError } from "../errors.js";

// A record, not a list, so that a code missing here (or one too many) fails to compile.
/** The codes a {@link DBOSRunError} can carry, as data (docs/concepts.md's table is checked against it). */
export const DBOS_RUN_CODES = Object.keys({
  DBOS_NOT_LAUNCHED: true,
  DBOS_GRAPH_NOT_REGISTERED: true,
  DBOS_ALREADY_REGISTERED: true,
  DBOS_ALREADY_LAUNCHED: true,
  DBOS_UNAVAILABLE: true,
  DBOS_RUN_NOT_FOUND: true,
  DBOS_NOT_INTERRUPTED: true,
  DBOS_RUN_STOPPED: true,
  DBOS_CANNOT_CONTINUE: true,
} satisfies Record<DBOSRunCode, true>) as readonly DBOSRunCode[];

/** The codes a {@link DBOSRunError} can carry. */
export type DBOSRunCode =
  /** `DBOS.launch()` was not called (or `DBOS.shutdown()` was) in this process. */
  | "DBOS_NOT_LAUNCHED"
  /** The graph was not registered with `registerOnDBOS` before `DBOS.launch()`. */
  | "DBOS_GRAPH_NOT_REGISTERED"
  /** `registerOnDBOS` was called twice for one name or one graph. */
  | "DBOS_ALREADY_REGISTERED"
  /** `registerOnDBOS` was called after `DBOS.launch()`: a recovered run could not find its workflow. */
  | "DBOS_ALREADY_LAUNCHED"
  /** DBOS's system database (Postgres) could not be reached, or refused the operation. */
  | "DBOS_UNAVAILABLE"
  /** No run has this workflow id. */
  | "DBOS_RUN_NOT_FOUND"
  /** `resumeOnDBOS` on a run that is not paused at an interrupt. */
  | "DBOS_NOT_INTERRUPTED"
  /** DBOS stopped the run itself: cancelled, or past its recovery attempts. */
  | "DBOS_RUN_STOPPED"
  /** `continueOnDBOS` on a run it cannot move to this version: another graph's, paused inside a subgraph, or recorded before stops recorded where they stood. */
  | "DBOS_CANNOT_CONTINUE";

/**
 * A durable run on DBOS could not start, be found, be resumed or finish, for a reason outside the
 * graph. `workflowId` names the run when there is one.
 *
 * @example
 * ```ts
 * await runOnDBOS(graph, input, { workflowId: "report-42" }).catch((e: DBOSRunError) => e.code); // "DBOS_NOT_LAUNCHED"
 * ```
 */
export class DBOSRunError extends GraphError<DBOSRunCode> {
  override readonly name = "DBOSRunError";
  readonly workflowId: string | undefined;

  constructor(code: DBOSRunCode, message: string, options: { readonly workflowId?: string; readonly cause?: unknown } = {}) {
    super(code, message, "cause" in options ? { cause: options.cause } : undefined);
    this.workflowId = options.workflowId;
  }
}
