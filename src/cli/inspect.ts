/** `tsg inspect`: a local, offline web inspector for a graph, its live runs and a checkpoint database's threads. */
import { startInspector, type Inspector } from "../inspect/server.js";
import { defineCommand } from "./command.js";
import { GRAPH_ARGUMENT } from "./graph-source.js";
import { inspectTarget } from "./inspect-targets.js";
import type { CliIO } from "./io.js";
import { LOAD_TIMEOUT_FLAG, loadersOf } from "./module-loader.js";
import { refuseEmptyDbPath } from "./thread-db.js";
import { cutLines } from "../inspect/echo.js";

/** The port `tsg inspect` listens on unless `--port` says otherwise. */
export const INSPECT_DEFAULT_PORT = 4680;

/** When the server should stop: the CLI waits for Ctrl-C; tests stop it themselves. */
export interface InspectLifetime {
  /** Resolves once the inspector is up; the command resolves after `stopped` does. */
  readonly started?: (inspector: Inspector) => void;
  /** Default: SIGINT or SIGTERM. */
  readonly stopped?: Promise<void>;
}

let lifetime: InspectLifetime = {};

/**
 * Sets how the next `tsg inspect` runs end (tests start the command and stop it without a signal).
 *
 * @example
 * ```ts
 * setInspectLifetime({ started: (inspector) => console.log(inspector.url), stopped: done });
 * ```
 */
export function setInspectLifetime(next: InspectLifetime): void {
  lifetime = next;
}

/** `tsg inspect`, for the command table. */
export const inspectCommand = defineCommand({
  name: "inspect",
  summary: "open a local web inspector: the graph, live runs, a thread's checkpoints, coverage",
  description:
    "Starts a web inspector on http://127.0.0.1:PORT/ and prints its URL: the graph drawn from its spec, live\n" +
    "runs lighting up node by node, a thread's checkpoints with the state and a diff of each, resume, fork\n" +
    "and edit (tsg resume's rules), and which transitions the runs took. Nothing is loaded from the network.\n" +
    "A --db file it did not create opens read-only; without --db, threads live in memory until it stops.",
  positional: { name: "GRAPH", description: GRAPH_ARGUMENT, default: "report" },
  flags: {
    db: {
      type: "string",
      valueHint: "FILE",
      description: "the checkpoint database to read (created when missing)",
      defaultHelp: "none: threads in memory",
    },
    port: { type: "integer", min: 0, description: "the port on 127.0.0.1 (0 picks a free one)", default: INSPECT_DEFAULT_PORT },
    thread: { type: "string", valueHint: "T", description: "a thread of --db to list from the start", multiple: true },
    "allow-writes": { type: "boolean", description: "allow resume, fork and edit on a --db file tsg inspect did not create" },
    "load-timeout": LOAD_TIMEOUT_FLAG,
  },
  notes:
    "It answers only Host 127.0.0.1 and localhost (no DNS rebinding). Stop it with Ctrl-C.\n" +
    "Problems with the graph or the database are shown in the page and printed here; the server still starts.",
  exitCodes: "0 stopped with Ctrl-C, 2 bad arguments or a port that is in use.",
  async run({ flags, positional }, io) {
    const { port } = flags;
    // Only an empty --db is a bad argument: a directory, a missing directory or an unreadable file is the
    // database's problem, which the page and the console show while the server runs.
    if (flags.db !== undefined) refuseEmptyDbPath(flags.db);
    const target = await inspectTarget(positional, loadersOf(flags["load-timeout"]));
    let inspector: Inspector;
    try {
      inspector = await startInspector({
        target,
        port,
        ...(flags.db === undefined ? {} : { db: flags.db }),
        allowWrites: flags["allow-writes"],
        threads: flags.thread ?? [],
        log: (line) => io.stderr.write(`tsg ${line}\n`),
      });
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === "EADDRINUSE" || code === "EACCES") {
        io.stderr.write(
          `tsg inspect: cannot listen on 127.0.0.1:${port} (${String(code)}); pick another with --port N (0: any free port).\n`,
        );
        return 2;
      }
      throw error;
    }
    report(inspector, target.problem, io);
    const current = lifetime;
    current.started?.(inspector);
    await (current.stopped ?? untilSignal());
    await inspector.close();
    return 0;
  },
});

function report(inspector: Inspector, graphProblem: string | undefined, io: CliIO): void {
  const { store } = inspector;
  io.stdout.write(`tsg inspect: ${inspector.url}\n`);
  io.stdout.write(`database: ${store.label}${store.writable ? "" : " (read-only: --allow-writes to resume, fork or edit)"}\n`);
  if (graphProblem !== undefined) io.stderr.write(`tsg inspect: ${cutLines(graphProblem)}\n`);
  if (store.problem !== undefined) io.stderr.write(`tsg inspect: ${cutLines(store.problem)}\n`);
}

function untilSignal(): Promise<void> {
  return new Promise((done) => {
    const stop = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      done();
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
}

/**
 * Runs `tsg inspect` with the arguments after `inspect`; resolves with the exit code once it stops.
 *
 * @example
 * ```ts
 * await runInspectCommand(["report", "--db", "runs.sqlite"], { stdout: process.stdout, stderr: process.stderr });
 * ```
 */
export function runInspectCommand(argv: readonly string[], io: CliIO): Promise<number> {
  return inspectCommand.run(argv, io);
}
