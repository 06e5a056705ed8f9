/**
 * `tsg test GRAPH --emit vitest`: explores a graph with fast-check against its coverage plan and writes a
 * vitest file with one deterministic test per planned path some run took, and a todo per path none took.
 * A module names its exploration settings in an export called `exploration` (`ExploreOptions`: the
 * input arbitrary, the replaced nodes' outcomes, answers, invariants), since a graph alone does not say
 * how to drive its nodes.
 */
import { basename, dirname, relative, resolve } from "node:path";
import { coveragePlan } from "../coverage/index.js";
import type { CompiledGraph } from "../engine/index.js";
import { InvalidOptionError } from "../errors.js";
import type { ExplorationReport, ExploreOptions } from "../testing/explore/types.js";
import { cut, quote } from "../inspect/echo.js";
import { defineCommand } from "./command.js";
import { loadGraph } from "./graph-source.js";
import { UsageError, type CliIO } from "./io.js";
import { LOAD_TIMEOUT_FLAG, loadersOf, type GraphLoaders } from "./module-loader.js";
import { refuseExisting, writeOutput } from "./output-file.js";

/** The export of a module that says how `tsg test` explores its graph. */
export const EXPLORATION_EXPORT = "exploration";

/** What `tsg test` explores: the graph, its settings, and the code that binds `graph` in the emitted file. */
interface Target {
  readonly title: string;
  readonly graph: CompiledGraph<object>;
  readonly exploration: ExploreOptions<object>;
  readonly setup: (outFile: string) => string;
}

/** `tsg test`, for the command table. */
export const testCommand = defineCommand({
  name: "test",
  summary: "explore a graph with fast-check and write a test per planned path it can take",
  description:
    "Runs the graph many times with fast-check (inputs, node outcomes and answers from the module's\n" +
    `\`${EXPLORATION_EXPORT}\` export, ExploreOptions; the report example has its own), checks its invariants\n` +
    "after every superstep, and writes a vitest file: one test per planned path some run took, replaying\n" +
    "that run (no fast-check, no model), and an it.todo per planned path no run took.",
  positional: {
    name: "GRAPH",
    description: `report, or a module's export: ./graph.ts#triage (the module also exports \`${EXPLORATION_EXPORT}\`)`,
  },
  flags: {
    emit: { type: "choice", choices: ["vitest"], description: "the test file to write", default: "vitest" },
    out: { type: "string", valueHint: "FILE", description: "where to write it (default: GRAPH-NAME.paths.test.ts here)" },
    force: { type: "boolean", description: "overwrite FILE if it exists (it may hold your edits)" },
    runs: { type: "integer", min: 1, max: 1_000_000, valueHint: "N", description: "how many runs to explore", default: 200 },
    seed: { type: "integer", min: 0, max: 2 ** 31 - 1, valueHint: "N", description: "fast-check's seed (default: random)" },
    "load-timeout": LOAD_TIMEOUT_FLAG,
  },
  exitCodes:
    "0 written, every planned path taken; 1 written, some paths not reached (it.todo); 2 bad arguments; 3 a run failed the exploration (nothing written).",
  async run({ flags, positional }, io) {
    const { ExplorationError, emitVitest, exploreGraph } = await explorationModules();
    const loaders = loadersOf(flags["load-timeout"]);
    const target = await targetOf(positional, loaders);
    const out = resolve(flags.out ?? `${target.title}.paths.test.ts`);
    refuseExisting(out, flags.force, "--out");
    const plan = await coveragePlan(target.graph);
    const runs = flags.runs;
    let coverage: NonNullable<ExplorationReport<object>["coverage"]>;
    try {
      const report = await exploreGraph(target.graph, {
        ...target.exploration,
        runs,
        ...(flags.seed === undefined ? {} : { seed: flags.seed }),
        plan,
      });
      coverage = report.coverage ?? { feasible: [], notReached: plan.paths };
    } catch (error) {
      // The module's settings are the user's: a bad one is a usage error naming it, not a bug of tsg.
      if (error instanceof InvalidOptionError) throw new UsageError(`the \`${EXPLORATION_EXPORT}\` settings: ${error.message}`);
      if (!(error instanceof ExplorationError)) throw error;
      io.stderr.write(`tsg test: a run failed the exploration, so no file was written:\n${error.message.replace(/^exploreGraph: /, "")}\n`);
      return 3;
    }
    const command = `tsg test ${positional} --emit vitest`;
    writeOutput(out, emitVitest({ title: target.title, setup: target.setup(out), command, runs, coverage }), "--out");
    io.stdout.write(
      `${relative(process.cwd(), out) || out}: ${coverage.feasible.length} tests (planned paths taken), ${coverage.notReached.length} todo (not reached in ${runs} runs)\n`,
    );
    return coverage.notReached.length === 0 ? 0 : 1;
  },
});

/**
 * The exploration code, loaded only by `tsg test`: it needs fast-check, an optional peer dependency that
 * every other command (and `tsg report` in a project without it) does without.
 */
async function explorationModules() {
  try {
    return await import("../testing/index.js");
  } catch (error) {
    if (isMissingFastCheck(error)) {
      throw new UsageError("tsg test needs fast-check, an optional peer dependency: npm install --save-dev fast-check");
    }
    throw error;
  }
}

function isMissingFastCheck(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === "ERR_MODULE_NOT_FOUND" && typeof message === "string" && message.includes("'fast-check'");
}

/** The graph and exploration an argument names: the report example, or a module's export and its `exploration`. */
async function targetOf(argument: string, loaders: GraphLoaders): Promise<Target> {
  if (argument === "report") {
    // Loaded only here: the settings import fast-check, which `tsg report` does not need.
    const { reportExplorationGraph, reportExploration, REPORT_EXPLORATION_SETUP } = await import("../examples/report/exploration.js");
    return {
      title: "report",
      graph: reportExplorationGraph() as CompiledGraph<object>,
      exploration: reportExploration as ExploreOptions<object>,
      setup: () => REPORT_EXPLORATION_SETUP,
    };
  }
  const source = await loadGraph(argument, loaders);
  if (source.problems !== undefined)
    throw new UsageError(`${quote(argument)} has problems, so it cannot run; \`tsg check ${argument}\` lists them.`);
  const graph = source.graph;
  if (graph === undefined)
    throw new UsageError(`${quote(argument)} is a spec, not a graph tsg can run; export the compiled graph (builder.compile()).`);
  const hash = argument.lastIndexOf("#");
  const file = hash < 0 ? argument : argument.slice(0, hash);
  const exportName = hash < 0 ? "default" : argument.slice(hash + 1);
  const exploration = source.exports?.[EXPLORATION_EXPORT];
  if (typeof exploration !== "object" || exploration === null || !("input" in exploration)) {
    throw new UsageError(
      `the module ${cut(file)} has no \`${EXPLORATION_EXPORT}\` export with an input arbitrary; export const ${EXPLORATION_EXPORT} = { input: fc.constant(initialState) } (ExploreOptions, typed-state-graph/testing).`,
    );
  }
  return {
    title: exportName === "default" ? basename(file).replace(/\.[^.]+$/, "") : exportName,
    graph,
    exploration: exploration as ExploreOptions<object>,
    setup: (outFile) => {
      let specifier = relative(dirname(outFile), resolve(loaders.cwd ?? process.cwd(), file)).replace(/\\/g, "/");
      if (!specifier.startsWith(".")) specifier = `./${specifier}`;
      const binding = exportName === "default" ? "graph" : exportName === "graph" ? "{ graph }" : `{ ${exportName} as graph }`;
      return `import ${binding} from ${JSON.stringify(specifier)};`;
    },
  };
}

/**
 * Runs `tsg test` with the arguments after `test` and resolves with the exit code.
 *
 * @example
 * ```ts
 * await runTestCommand(["report", "--out", "report.paths.test.ts"], { stdout: process.stdout, stderr: process.stderr });
 * ```
 */
export function runTestCommand(argv: readonly string[], io: CliIO): Promise<number> {
  return testCommand.run(argv, io);
}
