/** The GraphExecutionError a run rejects with (any other outcome fails the test). */
import { GraphExecutionError } from "../../src/index.js";

export async function executionFailure(run: Promise<unknown>): Promise<GraphExecutionError> {
  const error = await run.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof GraphExecutionError)) throw new Error(`expected a GraphExecutionError, got ${String(error)}`);
  return error;
}
