/**
 * Every stored thread of a checkpoint store, for `tsg history --versions` and `tsg migrate --dry-run`:
 * `--db` names an SQLite file (opened read-only, never created) or a PostgreSQL connection string
 * (`postgres://…`; its `tsg` schema, or `--schema`). Listing threads is the store's optional
 * `listThreads`; a store without it is refused with what it needs.
 */
import type { Checkpoint, Checkpointer } from "../persistence/index.js";
import { UsageError } from "./io.js";
import { withCheckpointer } from "./thread-db.js";
import { cut } from "../inspect/echo.js";

/** Whether `--db` is a PostgreSQL connection string rather than a file. */
export function isPostgresUrl(db: string): boolean {
  return /^postgres(ql)?:\/\//i.test(db);
}

/** `--schema` for the commands that read a PostgreSQL store. */
export const SCHEMA_FLAG = {
  type: "string",
  valueHint: "NAME",
  description: "with a postgres:// --db: the schema that holds the tables",
  defaultHelp: "tsg",
} as const;

/**
 * Opens the store `--db` names, read-only where the store allows it, runs `use`, and closes it. A
 * PostgreSQL store's connect creates the schema's tables when they are missing (it writes no thread).
 *
 * @example
 * ```ts
 * const ids = await withStore({ db: "tsg.sqlite" }, (store) => threadIdsOf(store, "tsg history --versions"));
 * ```
 */
export async function withStore<T>(
  where: { readonly db: string; readonly schema?: string | undefined },
  use: (store: Checkpointer) => Promise<T>,
): Promise<T> {
  if (!isPostgresUrl(where.db)) {
    // Any thread id passes the id check: the command reads every thread.
    return withCheckpointer({ threadId: "-", db: where.db }, use, { create: false, mapStoreErrors: true, readOnly: true });
  }
  const { PostgresCheckpointer } = await import("../postgres/index.js");
  let store: Awaited<ReturnType<typeof PostgresCheckpointer.connect>>;
  try {
    store = await PostgresCheckpointer.connect(where.db, where.schema === undefined ? {} : { schema: where.schema });
  } catch (error) {
    throw new UsageError(`--db ${cut(redacted(where.db))}: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`, {
      cause: error,
    });
  }
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}

/**
 * The store's threads, through its optional `listThreads`; a store without one is a {@link UsageError}
 * saying what `command` needs.
 *
 * @example
 * ```ts
 * await threadIdsOf(new MemoryCheckpointer(), "tsg migrate"); // []
 * ```
 */
export async function threadIdsOf(store: Checkpointer, command: string): Promise<string[]> {
  if (typeof store.listThreads !== "function")
    throw new UsageError(
      `${command} lists every thread of the store, and this store has no listThreads(): add listThreads(): Promise<string[]> to it (the optional Checkpointer method).`,
    );
  return store.listThreads();
}

/** A stored thread's latest checkpoint, with the graph version that wrote it. */
export interface StoredThread {
  readonly threadId: string;
  readonly latest: Checkpoint;
  /** The version of the graph that wrote the latest checkpoint (1 for one written before versions). */
  readonly version: number;
}

/**
 * Each thread of the store with its latest checkpoint and that checkpoint's graph version.
 *
 * @example
 * ```ts
 * (await storedThreads(store, "tsg history --versions")).map((thread) => thread.version); // [1, 2, 2]
 * ```
 */
export async function storedThreads(store: Checkpointer, command: string): Promise<StoredThread[]> {
  const threads: StoredThread[] = [];
  for (const threadId of await threadIdsOf(store, command)) {
    const latest = await store.latest(threadId);
    if (latest !== undefined) threads.push({ threadId, latest, version: latest.graph?.version ?? 1 });
  }
  return threads;
}

/** The connection string without its password, for messages. */
function redacted(url: string): string {
  return url.replace(/(:\/\/[^:/@]*:)[^@]*@/, "$1***@");
}
