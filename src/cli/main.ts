#!/usr/bin/env node
import { guardExit } from "./exit-guard.js";
import { runCli } from "./run-cli.js";

const argv = process.argv.slice(2);
const finished = guardExit(argv[0] ?? "", process.stderr);
const code = await runCli(argv, { stdout: process.stdout, stderr: process.stderr });
finished();
// tsg ends when its command does, even if a module it loaded left a timer, a socket or an unsettled
// top-level await behind: once what it wrote is flushed.
await Promise.all([process.stdout, process.stderr].map((stream) => new Promise((flushed) => stream.write("", flushed))));
process.exit(code);
