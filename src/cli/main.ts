#!/usr/bin/env node
import { guardExit } from "./exit-guard.js";
import { runCli } from "./run-cli.js";

/** How long tsg waits, once its command finished, for what loaded code left running before it exits anyway. */
const LINGER_MS = 500;

const argv = process.argv.slice(2);
const finished = guardExit(argv[0] ?? "", process.stderr);
const code = await runCli(argv, { stdout: process.stdout, stderr: process.stderr });
finished(code);
process.exitCode = code;
// tsg ends when its command does. It lets Node exit on its own first: a natural exit finalizes the SQLite
// driver's statements, so a closed database leaves no -wal/-shm files behind (process.exit() skips that).
// A module it loaded may have left a timer, a socket or an unsettled top-level await behind: then the
// unref'd timer below fires and ends the process, once what tsg wrote is flushed. The exit guard stays on
// meanwhile: a module's timer that calls process.exit() in this window cannot change the command's code.
setTimeout(() => {
  void Promise.all([process.stdout, process.stderr].map((stream) => new Promise((flushed) => stream.write("", flushed)))).then(() =>
    process.exit(code),
  );
}, LINGER_MS).unref();
