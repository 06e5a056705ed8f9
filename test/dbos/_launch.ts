/** DBOS launched once per test file, on a fresh database of the shared test server, and shut down after. */
import { DBOS } from "@dbos-inc/dbos-sdk";
import { afterAll, beforeAll } from "vitest";
import { freshDatabase } from "../helpers/postgres.js";

/** Launches DBOS for the file's tests (register its graphs before calling this); returns a fresh workflow id maker. */
export function launchDBOSForFile(name: string): (prefix: string) => string {
  let database: Awaited<ReturnType<typeof freshDatabase>> | undefined;
  beforeAll(async () => {
    database = await freshDatabase(name);
    DBOS.setConfig({ name: `tsg-${name}`, systemDatabaseUrl: database.url, logLevel: "error" });
    await DBOS.launch();
  }, 120_000);
  afterAll(async () => {
    await DBOS.shutdown();
    await database?.drop();
  }, 60_000);
  let ids = 0;
  return (prefix) => `${prefix}-${Date.now()}-${++ids}`;
}
