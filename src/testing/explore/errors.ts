/**
 * The error `exploreGraph` rejects with when a generated run breaks an invariant, fails unexpectedly or
 * does not end: the shrunk run and how to replay it.
 */
import { GraphError } from "../../errors.js";
import type { ExploredRun } from "./types.js";

/** The codes of an {@link ExplorationError}. */
export const EXPLORATION_ERROR_CODES = ["EXPLORATION_FAILED"] as const;
/** The codes an {@link ExplorationError} can carry. */
export type ExplorationErrorCode = (typeof EXPLORATION_ERROR_CODES)[number];

/**
 * A generated run failed `exploreGraph`'s checks (`EXPLORATION_FAILED`): an invariant did not hold after
 * a superstep, the run failed with an error code not in `expectErrors`, or it did not end. The message
 * prints the shrunk run (its path, node by node with the route keys, its input, outcomes and answers)
 * and the replay command; `seed`, `path` and `run` hold the same for a test to read.
 *
 * @example
 * ```ts
 * try {
 *   await exploreGraph(graph, options);
 * } catch (error) {
 *   if (error instanceof ExplorationError) console.log(error.seed, error.path, error.run?.trace);
 * }
 * ```
 */
export class ExplorationError extends GraphError<ExplorationErrorCode> {
  override readonly name = "ExplorationError";
  /** fast-check's seed of the failing exploration. */
  readonly seed: number;
  /** fast-check's path to the shrunk counterexample (with `seed`, what `TSG_REPLAY` takes). */
  readonly path: string;
  /** The shrunk failing run, when it completed far enough to be described. */
  readonly run: ExploredRun<unknown> | undefined;

  constructor(
    code: ExplorationErrorCode,
    message: string,
    details: { readonly seed: number; readonly path: string; readonly run: ExploredRun<unknown> | undefined },
  ) {
    super(code, message);
    this.seed = details.seed;
    this.path = details.path;
    this.run = details.run;
  }
}
