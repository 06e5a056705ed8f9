import type { Command } from "./io.js";

/** Every `tsg` subcommand by name. Each lives in its own file. */
export const commands: Readonly<Record<string, Command>> = {};
