/** `tsg research`: runs the research graph (parallel sources, one synthesis) and prints its findings. */
import { buildResearchGraph, initialResearchState, type ResearchState } from "../examples/research/index.js";
import { DEFAULT_MAX_STEPS, GraphExecutionError, type Step } from "../index.js";
import { ENGINES, PARALLEL_ENGINES, streamOnEngine, type Engine } from "./engines.js";
import { formatUpdateLine } from "./format.js";
import { UsageError, type CliIO, type Command } from "./io.js";
import { parseChoiceFlag, parseCommandFlags } from "./options.js";

/**
 * The engines `--engine` accepts: the ones that run parallel graphs (fan-out, join), so a choice never
 * falls back silently. XState runs them in its superstep layout.
 */
export const RESEARCH_ENGINES: readonly Engine[] = ENGINES.filter(
  (engine) => engine === "xstate" || (PARALLEL_ENGINES as readonly Engine[]).includes(engine),
);

const USAGE = `Usage: tsg research [options]

Plans a topic, searches three sources in parallel (one superstep), then synthesizes once.

Options:
  --topic TEXT        what to research (default: tides)
  --show-updates      print the fields each node updated, in declaration order within a superstep
  --engine ENGINE     ${RESEARCH_ENGINES.join("|")} (default: mini)
  -h, --help          show this help

Exit codes: 0 summarized, 1 the run failed, 2 bad arguments.`;

const FLAGS = {
  topic: { type: "string" },
  "show-updates": { type: "boolean" },
  engine: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/**
 * Runs `tsg research` with the arguments after `research` and resolves with the exit code.
 *
 * @example
 * ```ts
 * const code = await runResearchCommand(["--topic", "tides"], { stdout: process.stdout, stderr: process.stderr });
 * ```
 */
export async function runResearchCommand(argv: readonly string[], io: CliIO): Promise<number> {
  let input: ResearchState;
  let showUpdates: boolean;
  let engine: Engine;
  try {
    const { values } = parseCommandFlags(argv, FLAGS);
    if (values.help === true) {
      io.stdout.write(USAGE + "\n");
      return 0;
    }
    engine = parseChoiceFlag("--engine", values.engine, RESEARCH_ENGINES) ?? "mini";
    input = initialResearchState(values.topic ?? "tides");
    showUpdates = values["show-updates"] === true;
  } catch (error) {
    if (error instanceof UsageError || error instanceof TypeError) {
      io.stderr.write(`tsg research: ${error.message}\nRun \`tsg research --help\` for the options.\n`);
      return 2;
    }
    throw error;
  }
  const graph = buildResearchGraph();
  for (const warning of graph.warnings) io.stderr.write(`warning: ${warning.message}\n`);
  let last: Step<ResearchState> | undefined;
  try {
    for await (const step of streamOnEngine(engine, graph, input, { maxSteps: DEFAULT_MAX_STEPS })) {
      if (showUpdates) io.stdout.write(formatUpdateLine(step.node, step.update) + "\n");
      last = step;
    }
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`tsg research: ${error.message}\nRun \`tsg research --help\` for the options.\n`);
      return 2;
    }
    if (error instanceof GraphExecutionError) {
      io.stderr.write(
        `tsg research: the run failed at ${error.path.join("/")}: ${error.message}\ncompleted: ${error.trace.join(" -> ") || "(none)"}\n`,
      );
      return 1;
    }
    throw error;
  }
  const state = last?.state ?? input;
  io.stdout.write(`topic: ${state.topic}\nfindings: ${state.findings.length}\n`);
  for (const finding of state.findings) io.stdout.write(`- ${finding}\n`);
  io.stdout.write(`${state.summary ?? "No summary."}\n`);
  return state.summary === null ? 1 : 0;
}

/** The `tsg research` command. */
export const researchCommand: Command = {
  summary: "run the research graph: parallel sources, one synthesis",
  run: runResearchCommand,
};
