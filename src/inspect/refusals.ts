/** The inspector's refusals, worded once: an unknown thread, no graph, and any failure as the JSON the page shows. */
import { CoverageError } from "../coverage/index.js";
import { GraphError } from "../index.js";
import { PersistenceError } from "../persistence/index.js";
import { InspectError } from "./errors.js";
import type { InspectTarget } from "./target.js";
import { cut, cutLines, LINE_LIMIT, quote } from "./echo.js";

/** A refusal as the page receives it. */
export interface Refusal {
  readonly status: number;
  readonly code: string;
  readonly message: string;
}

/** A thread with no checkpoint in the database. */
export function unknownThread(threadId: string, db: string): InspectError {
  return new InspectError(
    "NOT_FOUND",
    `inspect: thread ${quote(threadId)} has no checkpoint in ${cut(db)}; check the thread id (tsg history --thread T --db FILE lists one).`,
  );
}

/** The target has no graph (its module exports none, or it does not validate). */
export function noGraph(target: InspectTarget): InspectError {
  return new InspectError("NO_GRAPH", `inspect: ${target.label}: ${target.problem ?? "there is no graph to show."}`);
}

/** Any failure as the page's refusal: the inspector's own, the store's (a corrupted database), coverage's, or an internal one. */
export function refusalOf(error: unknown, db: string): Refusal {
  if (error instanceof InspectError) return { status: error.status, code: error.code, message: error.message };
  if (error instanceof PersistenceError)
    return { status: 422, code: error.code, message: `inspect: --db ${cut(db)}: ${cut(error.message.split("\n")[0] ?? "", LINE_LIMIT)}` };
  if (error instanceof CoverageError) return { status: 409, code: error.code, message: `inspect: ${cutLines(error.message)}` };
  // The graph's own refusal (a bad input, an update it does not accept): the input's fault, not the server's.
  if (error instanceof GraphError) return { status: 400, code: error.code, message: cutLines(error.message) };
  const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  if (typeof code === "string" && code.startsWith("SQLITE_"))
    return {
      status: 422,
      code: "STORE_FAILED",
      message: `inspect: --db ${cut(db)}: ${cut((error as Error).message.split("\n")[0] ?? "", LINE_LIMIT)}`,
    };
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return {
    status: 500,
    code: "INTERNAL",
    message: `inspect: internal error: ${cut(message.split("\n")[0] ?? "", LINE_LIMIT)} (a bug in tsg inspect: please report it)`,
  };
}
