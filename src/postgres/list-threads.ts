/** `PostgresCheckpointer.listThreads`'s SQL: the rule of persistence/thread-listing.ts (top-level threads, UTF-8 byte order). */
import { quoteIdentifier } from "./schema.js";

/**
 * The query listing the top-level threads of the tables in `schema`, sorted as SQLite's binary collation sorts them.
 *
 * @example
 * ```ts
 * listThreadsSql("tsg"); // SELECT thread_id FROM "tsg".tsg_checkpoints WHERE … ORDER BY thread_id COLLATE "C"
 * ```
 */
export function listThreadsSql(schema: string): string {
  return `SELECT thread_id FROM ${quoteIdentifier(schema)}.tsg_checkpoints WHERE strpos(thread_id, chr(31)) = 0 GROUP BY thread_id ORDER BY thread_id COLLATE "C"`;
}
