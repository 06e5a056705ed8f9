/** The error `assertResumable` throws: every resume point of the old version the new graph cannot take. */
import { GraphError } from "../errors.js";
import type { ResumeProblem } from "../validate/resumability.js";

/** The codes of a {@link ResumabilityError}. */
export const RESUMABILITY_ERROR_CODES = ["NOT_RESUMABLE"] as const;
/** The codes a {@link ResumabilityError} can carry. */
export type ResumabilityErrorCode = (typeof RESUMABILITY_ERROR_CODES)[number];

/** The most problems the message lists; `problems` holds every one. */
const LISTED = 50;

/**
 * A thread of the old version, paused or stopped somewhere, could not continue on the new graph
 * (`NOT_RESUMABLE`): `problems` lists each such resume point (and each state field that changed) with what
 * to declare, and the message lists them too.
 *
 * @example
 * ```ts
 * try {
 *   assertResumable(v1, v2);
 * } catch (error) {
 *   if (error instanceof ResumabilityError) console.log(error.problems.map((problem) => problem.point)); // ["before:publish", …]
 * }
 * ```
 */
export class ResumabilityError extends GraphError<ResumabilityErrorCode> {
  override readonly name = "ResumabilityError";
  readonly problems: readonly ResumeProblem[];

  constructor(problems: readonly ResumeProblem[], note: string | undefined) {
    const lines = problems.slice(0, LISTED).map((problem) => `  - ${problem.point}: ${problem.reason}; ${problem.fix}.`);
    if (problems.length > LISTED) lines.push(`  … and ${problems.length - LISTED} more (error.problems lists every one).`);
    const count = `${problems.length} resume point${problems.length === 1 ? "" : "s"} (or state fields)`;
    super(
      "NOT_RESUMABLE",
      `assertResumable: ${count} of the old version cannot continue on the new graph:\n${lines.join("\n")}${note === undefined ? "" : `\n(${note}.)`}`,
    );
    this.problems = problems;
  }
}
