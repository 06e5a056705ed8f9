/** The inspector's one error: a request it refuses, with the HTTP status the page receives and a message that says what to do. */
import { GraphError } from "../errors.js";

/** Why the inspector refused a request: each maps to one HTTP status. */
export const INSPECT_PROBLEMS = {
  BAD_REQUEST: 400,
  WRITES_DISABLED: 403,
  FORBIDDEN_HOST: 403,
  FORBIDDEN_ORIGIN: 403,
  NOT_FOUND: 404,
  REQUEST_TIMEOUT: 408,
  UNSUPPORTED_MEDIA_TYPE: 415,
  NO_GRAPH: 409,
  STORE_FAILED: 422,
  TOO_LARGE: 413,
} as const;

/** A problem code of {@link InspectError}. */
export type InspectProblem = keyof typeof INSPECT_PROBLEMS;

/**
 * A request the inspector refuses. The page shows `message` as it is; the console logs it too.
 *
 * @example
 * ```ts
 * throw new InspectError("NOT_FOUND", `inspect: thread "t9" has no checkpoint in runs.sqlite.`);
 * ```
 */
export class InspectError extends GraphError<InspectProblem> {
  override readonly name = "InspectError";

  /** The HTTP status of the response. */
  get status(): number {
    return INSPECT_PROBLEMS[this.code];
  }
}
