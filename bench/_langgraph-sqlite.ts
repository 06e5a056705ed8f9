/**
 * The second peer on SQLite (issue 40): LangGraph.js running the exported report graph on its own SQLite
 * saver, `@langchain/langgraph-checkpoint-sqlite`. That package needs better-sqlite3 ^12, which compiles
 * from source for about 5 minutes, so it is never a dependency of ours: `bash bench/langgraph-sqlite.sh`
 * installs it into a directory of its own and runs the SQLite overhead bench with
 * `TSG_LANGGRAPH_SQLITE=<that directory>`, which this module loads it from.
 */
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { buildReportGraph, initialReportState, ReportState } from "../src/examples/report/index.js";
import type { Durability } from "../src/index.js";
import { toLangGraph } from "../src/langgraph/index.js";

/** The part of the saver's module the bench calls. */
interface SqliteSaverModule {
  readonly SqliteSaver: { fromConnString(path: string): { readonly db: { close(): void } } };
}

/** The peer, ready to run the report graph on `file`; or why it is not there. */
export type LangGraphSqlite =
  | { readonly run: (durability: Durability, threadId: string) => Promise<ReportState>; readonly close: () => void }
  | { readonly missing: string };

/** Loads the saver from `TSG_LANGGRAPH_SQLITE` and opens `file` with it. */
export async function langGraphSqlite(
  graph: ReturnType<typeof buildReportGraph>,
  input: ReturnType<typeof initialReportState>,
  file: string,
  maxSteps: number,
): Promise<LangGraphSqlite> {
  const dir = process.env.TSG_LANGGRAPH_SQLITE;
  if (dir === undefined || dir === "") return { missing: "not installed (bash bench/langgraph-sqlite.sh installs it and runs this bench)" };
  let module: SqliteSaverModule;
  try {
    const resolved = createRequire(join(dir, "package.json")).resolve("@langchain/langgraph-checkpoint-sqlite");
    module = (await import(pathToFileURL(resolved).href)) as SqliteSaverModule;
  } catch (error) {
    return { missing: `could not load @langchain/langgraph-checkpoint-sqlite from ${dir} (${String(error).split("\n")[0]})` };
  }
  const saver = module.SqliteSaver.fromConnString(file);
  const exported = await toLangGraph(graph);
  // The compiled graph reads its checkpointer at each run; toLangGraph compiles without one.
  (exported as unknown as { checkpointer: unknown }).checkpointer = saver;
  return {
    run: (durability, threadId) =>
      exported.invoke(input, {
        recursionLimit: maxSteps,
        durability,
        configurable: { thread_id: threadId },
      } as never) as Promise<ReportState>,
    close: () => saver.db.close(),
  };
}
