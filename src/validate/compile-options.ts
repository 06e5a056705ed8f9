/**
 * The options of `compile()` and `compileGraph`, checked before anything reads them: `compile(null)` or
 * `interruptBefore: "review"` (a string, not a list) must be an `InvalidOptionError`, not a crash.
 */
import { describeValue } from "../_describe.js";
import { InvalidOptionError } from "../errors.js";

/** Throws `InvalidOptionError` (`INVALID_OPTION`) naming the first bad option; `api` starts the message. */
export function checkCompileOptions(options: unknown, api: string): void {
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw new InvalidOptionError(
      `${api}: options must be an object such as { interruptBefore: ["review"] }; got ${describeValue(options)}.`,
    );
  }
  for (const name of ["interruptBefore", "interruptAfter"] as const) {
    const value = (options as Record<string, unknown>)[name];
    if (value !== undefined && (!Array.isArray(value) || !value.every((node) => typeof node === "string"))) {
      throw new InvalidOptionError(`${api}: ${name} must be a list of node names, e.g. ["review"]; got ${describeValue(value)}.`);
    }
  }
  const checkpointer = (options as Record<string, unknown>)["checkpointer"];
  if (checkpointer !== undefined && (typeof checkpointer !== "object" || checkpointer === null)) {
    throw new InvalidOptionError(
      `${api}: checkpointer must be a Checkpointer (such as new MemoryCheckpointer()); got ${describeValue(checkpointer)}.`,
    );
  }
}
