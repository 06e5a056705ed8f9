/**
 * The exit guard: code tsg loads (a user's graph module, its nodes) may call `process.exit(0)`, which
 * would end `tsg check` with 0, silently, and a CI step would read it as "valid". The guard stays on until
 * the process ends (an 'exit' listener may still change `process.exitCode`, and Node exits with it): an
 * exit before tsg finished its command is reported on stderr and turned into exit code 2; an exit after
 * it (a module's timer firing while tsg lingers before it exits) with another code than the command's is
 * reported too, and the command's code is kept.
 */

/** The module being loaded right now, for the guard's message. */
let loading: string | undefined;

/**
 * Runs `load` with `file` named as the module being loaded, so an exit during it names the module.
 *
 * @example
 * ```ts
 * const module = await whileLoading("./dist/graph.js", () => import(url));
 * ```
 */
export async function whileLoading<T>(file: string, load: () => Promise<T>): Promise<T> {
  loading = file;
  try {
    return await load();
  } finally {
    loading = undefined;
  }
}

/** The exit code of a process that loaded code ended before tsg finished (the code of "a module that does not load"). */
export const EXIT_ENDED_BY_LOADED_CODE = 2;

/**
 * Turns the guard on for the command `name`, until the process ends; call the returned function with the
 * command's exit code once the command finished.
 *
 * @example
 * ```ts
 * const finished = guardExit("check", process.stderr);
 * const code = await runCli(argv, io);
 * finished(code);
 * ```
 */
export function guardExit(name: string, stderr: { write(text: string): unknown }): (code: number) => void {
  let commandCode: number | undefined;
  process.on("exit", (code: number) => {
    if (commandCode === undefined) {
      const who = loading === undefined ? "code that tsg loaded (a module, or a node of its graph)" : `the module ${loading}`;
      const when = loading === undefined ? "before tsg finished" : "while tsg was loading it";
      stderr.write(
        `tsg ${name}: ${who} ended the process ${when} (exit code ${code}: process.exit(), or an error thrown outside tsg's reach); ` +
          "tsg did not finish. A graph module must not end the process.\n",
      );
      process.exitCode = EXIT_ENDED_BY_LOADED_CODE;
    } else if (code !== commandCode) {
      stderr.write(
        `tsg ${name}: code that tsg loaded (a module, or a node of its graph) ended the process with exit code ${code} after tsg ` +
          `finished; tsg exits with its own code, ${commandCode}. A graph module must not end the process.\n`,
      );
      process.exitCode = commandCode;
    }
  });
  return (code) => {
    commandCode = code;
  };
}
