/**
 * Every error class the library throws and the codes each can carry, read from the code itself (the
 * code lists of src/errors.ts and each class's own list, or an instance for a class with one code).
 * test/docs/errors-reference.test.ts holds docs/reference/errors.md to it (codes and classes);
 * error-codes.test.ts holds every entry point's exported error classes to it.
 */
import { UsageError } from "../../src/cli/io.js";
import { COVERAGE_ERROR_CODES, CoverageError } from "../../src/coverage/errors.js";
import { DBOS_RUN_CODES, DBOSRunError } from "../../src/dbos/errors.js";
import { CONTRACT_VIOLATION_CODES, ContractViolation } from "../../src/examples/agent/contracts.js";
import { PROVIDER_RESPONSE_CODES, ProviderResponseError } from "../../src/examples/agent/live/provider-error.js";
import { LIVE_SETUP_CODES, LiveSetupError } from "../../src/examples/agent/live/setup-error.js";
import { REPORT_REQUEST_CODES, ReportRequestError } from "../../src/examples/report/request.js";
import { INTERRUPT_ERROR_CODES, InterruptError } from "../../src/engine/interrupt-scope.js";
import {
  CheckpointConflictError,
  NotSerializableError,
  PERSISTENCE_ERROR_CODES,
  PersistenceError,
} from "../../src/engine/persistence-errors.js";
import {
  GraphExecutionError,
  GraphLimitError,
  GraphValidationError,
  INVALID_OPTION_CODES,
  INVALID_UPDATE_CODES,
  InvalidOptionError,
  InvalidUpdateError,
  LIMIT_CODES,
  RUN_FAILURE_CODES,
} from "../../src/errors.js";
import { INSPECT_PROBLEMS, InspectError } from "../../src/inspect/errors.js";
import { LANGGRAPH_INTEROP_CODES, LangGraphInteropError, LangGraphNodeError } from "../../src/langgraph/errors.js";
import { PROPERTY_VIOLATION_CODES, PropertyViolation } from "../../src/testing/errors.js";
import { EXPLORATION_ERROR_CODES, ExplorationError } from "../../src/testing/explore/errors.js";
import { RESUMABILITY_ERROR_CODES, ResumabilityError } from "../../src/testing/resumability-error.js";
import { XSTATE_EXPORT_CODES, XStateExportError } from "../../src/xstate/errors.js";

export type ErrorClass = abstract new (...args: never[]) => Error;

/** The library's own errors (the core and its integrations), as opposed to `tsg`'s, the inspector's and the examples'. */
export const LIBRARY_ERRORS: readonly (readonly [ErrorClass, readonly string[]])[] = [
  [GraphValidationError, [new GraphValidationError([]).code]],
  [GraphExecutionError, RUN_FAILURE_CODES],
  [InvalidUpdateError, INVALID_UPDATE_CODES],
  [GraphLimitError, LIMIT_CODES],
  [InvalidOptionError, INVALID_OPTION_CODES],
  [PersistenceError, PERSISTENCE_ERROR_CODES],
  [NotSerializableError, [new NotSerializableError("", "").code]],
  [CheckpointConflictError, [new CheckpointConflictError("", null, null).code]],
  [InterruptError, INTERRUPT_ERROR_CODES],
  [CoverageError, COVERAGE_ERROR_CODES],
  [ExplorationError, EXPLORATION_ERROR_CODES],
  [ResumabilityError, RESUMABILITY_ERROR_CODES],
  [PropertyViolation, PROPERTY_VIOLATION_CODES],
  [XStateExportError, XSTATE_EXPORT_CODES],
  [LangGraphInteropError, LANGGRAPH_INTEROP_CODES],
  [DBOSRunError, DBOS_RUN_CODES],
];

/**
 * Every error class the package throws: the library's, `tsg`'s and the inspector's, and the examples'.
 * `LangGraphNodeError` carries the code the mini engine would report for the same failure (its type is
 * `GraphExecutionCode`): until LangGraph's own failures get codes of their own, it shares those codes.
 */
export const ALL_ERRORS: readonly (readonly [ErrorClass, readonly string[]])[] = [
  ...LIBRARY_ERRORS,
  [LangGraphNodeError, [...RUN_FAILURE_CODES, ...INVALID_UPDATE_CODES, ...LIMIT_CODES]],
  [UsageError, [new UsageError("").code]],
  [InspectError, Object.keys(INSPECT_PROBLEMS)],
  [ContractViolation, Object.values(CONTRACT_VIOLATION_CODES)],
  [LiveSetupError, LIVE_SETUP_CODES],
  [ProviderResponseError, PROVIDER_RESPONSE_CODES],
  [ReportRequestError, REPORT_REQUEST_CODES],
];

/**
 * The `Error` subclasses of src/ that never reach a caller, and why: each is caught inside the library
 * (or is only a `cause`). Any other class that extends `Error` must extend `GraphError` and be listed above.
 */
export const INTERNAL_ERRORS: Readonly<Record<string, string>> = {
  StepFailure: "a failed step inside the kernel; every driver turns it into a GraphExecutionError (or LangGraphNodeError)",
  ReducerFailure: "mergeUpdate's failure; the run reports it as REDUCER_FAILED on a GraphExecutionError",
  SiblingFailed: "the abort reason of a superstep's other tasks when one failed, not thrown to the caller",
  NodePaused: "what interrupt() throws to pause its node; the run pauses, nothing fails",
  SuperstepPaused: "a superstep that paused at interrupts; the threaded run returns its interrupts",
  TaskRefused: "thrown inside a LangGraph task the run did not let start; the run reports why it stopped",
  SuperstepRefused:
    "thrown by the last LangGraph task of a superstep whose merged state the schema refuses, so LangGraph commits nothing; the run reports the kernel's INVALID_STATE",
  RecordedError: "a node's error replayed from DBOS's record: only ever the cause of a GraphExecutionError",
  CopyTooDeep:
    "how the copy unwinds from a value nested too deep; cloneState rethrows it as INVALID_ARGUMENT, keeping it only as the cause",
};
