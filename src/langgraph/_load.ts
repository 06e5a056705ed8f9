/**
 * Loads `@langchain/langgraph` on demand. It is an optional peer dependency: importing this package
 * (even its `langgraph` entry) never loads it; the first export or run does.
 */
import { LangGraphInteropError } from "./errors.js";

/** The `@langchain/langgraph` module. */
export type LangGraphModule = typeof import("@langchain/langgraph");

/** How the module is imported; tests pass a failing one to check the missing-peer message. */
export type LangGraphImporter = () => Promise<LangGraphModule>;

const importLangGraph: LangGraphImporter = () => import("@langchain/langgraph");

const INSTALL = "npm install @langchain/langgraph @langchain/core zod";

/**
 * Imports `@langchain/langgraph`, or rejects with a {@link LangGraphInteropError} that says what to
 * install (`LANGGRAPH_NOT_INSTALLED`) or why it failed to load (`LANGGRAPH_LOAD_FAILED`).
 */
export async function loadLangGraph(importer: LangGraphImporter = importLangGraph): Promise<LangGraphModule> {
  try {
    return await importer();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (isModuleNotFound(error)) {
      throw new LangGraphInteropError(
        "LANGGRAPH_NOT_INSTALLED",
        `toLangGraph: @langchain/langgraph could not be found (${reason}). It is an optional peer dependency: ${INSTALL}. ` +
          `Nothing runs on the mini engine in its place.`,
        { cause: error },
      );
    }
    throw new LangGraphInteropError("LANGGRAPH_LOAD_FAILED", `toLangGraph: @langchain/langgraph failed to load: ${reason}`, {
      cause: error,
    });
  }
}

function isModuleNotFound(error: unknown): boolean {
  const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  return code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND";
}
