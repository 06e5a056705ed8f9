/**
 * The options every store and threaded call checks the same way, so a bad value gets the same
 * `InvalidOptionError` (`INVALID_OPTION`) from MemoryCheckpointer, SqliteCheckpointer and a store of yours.
 * The checks only stores make (writes, chains, pruning) are in `src/persistence/store-checks.ts`.
 */
import { InvalidOptionError } from "../../errors.js";
import { isPlainObject } from "../clone.js";
import { briefly as described } from "../../_describe.js";
import type { ListOptions } from "../checkpointer.js";
import { checkJson } from "../json-check.js";

/**
 * Checks `list(threadId, options)`: `options` is an object, and `limit`, when given, a positive integer.
 *
 * @example
 * ```ts
 * checkListOptions("MyCheckpointer.list", { limit: 1.5 }); // InvalidOptionError: MyCheckpointer.list: limit must be a positive integer …
 * ```
 */
export function checkListOptions(api: string, options: unknown): ListOptions {
  if (options === undefined) return {};
  if (typeof options !== "object" || options === null) {
    throw new InvalidOptionError(`${api}: the options must be an object such as { limit: 10 }; got ${described(options)}.`);
  }
  const { limit } = options as { limit?: unknown };
  if (limit !== undefined && !(Number.isSafeInteger(limit) && (limit as number) > 0)) {
    throw new InvalidOptionError(
      `${api}: limit must be a positive integer (the most checkpoints to return, newest first), such as { limit: 10 }; ` +
        `got ${described(limit)}. Leave it out for every checkpoint.`,
    );
  }
  return limit === undefined ? {} : { limit: limit as number };
}

/**
 * Checks the `metadata` of a threaded run: a plain object of JSON values, stored with each checkpoint.
 *
 * @example
 * ```ts
 * checkMetadata("invoke", ["a"]); // InvalidOptionError: invoke: metadata must be a plain object …
 * ```
 */
export function checkMetadata(api: string, metadata: unknown): void {
  if (!isPlainObject(metadata)) {
    throw new InvalidOptionError(
      `${api}: metadata must be a plain object of JSON values, such as { user: "ada" }; got ${described(metadata)}.`,
    );
  }
  checkJson(metadata, "metadata", api);
}
