/**
 * The checks of a threaded call's options (the thread id, the checkpointer) and the refusal of a run
 * without a thread on a graph that needs one.
 */
import { quote } from "../../_describe.js";
import { InvalidOptionError } from "../../errors.js";
import { NAMESPACE_SEPARATOR } from "../subgraph-thread.js";
import type { Checkpointer } from "../checkpointer.js";
import type { ThreadRunOptions, ThreadSettings } from "./types.js";

/**
 * The refusal of a run without a thread on a graph compiled with interrupts or a checkpointer: it
 * would run straight through the interrupts, or save nothing.
 */
export function threadRequired(api: string, settings: ThreadSettings): InvalidOptionError {
  const interrupts = [...settings.interruptBefore, ...settings.interruptAfter];
  const why = interrupts.length > 0 ? `it pauses at interrupts (${interrupts.join(", ")})` : "it was compiled with a checkpointer";
  return new InvalidOptionError(
    `${api}: this graph runs on threads, because ${why}; pass { threadId } (and a checkpointer) so the run can be saved and resumed.`,
  );
}

/** Whether `invoke`'s options ask for a threaded run. */
export function isThreadRun(options: unknown): options is ThreadRunOptions {
  return typeof options === "object" && options !== null && "threadId" in options;
}

export function checkThreadOptions(
  api: string,
  settings: ThreadSettings,
  options: { readonly threadId?: unknown; readonly checkpointer?: unknown },
  childThread = false,
): { threadId: string; checkpointer: Checkpointer } {
  const { threadId } = options;
  if (typeof threadId !== "string" || threadId.trim() === "") {
    throw new InvalidOptionError(`${api}: threadId must be a non-empty string, such as "order-42"; got ${quote(threadId)}.`);
  }
  if (!childThread && threadId.includes(NAMESPACE_SEPARATOR)) {
    throw new InvalidOptionError(
      `${api}: threadId ${JSON.stringify(threadId)} contains the character U+001F, which separates a thread from its subgraphs' namespaces; choose an id without it.`,
    );
  }
  const checkpointer = options.checkpointer ?? settings.checkpointer;
  if (checkpointer === undefined) {
    throw new InvalidOptionError(
      `${api}: a thread needs a checkpointer: pass { threadId, checkpointer } (e.g. new MemoryCheckpointer()) or compile({ checkpointer }).`,
    );
  }
  if (!isCheckpointer(checkpointer)) {
    throw new InvalidOptionError(
      `${api}: checkpointer must implement save, latest, get, list, deleteThread and putWrites (see the Checkpointer interface).`,
    );
  }
  return { threadId, checkpointer };
}

function isCheckpointer(value: unknown): value is Checkpointer {
  if (typeof value !== "object" || value === null) return false;
  const methods = value as Record<string, unknown>;
  return ["save", "latest", "get", "list", "deleteThread", "putWrites"].every((name) => typeof methods[name] === "function");
}
