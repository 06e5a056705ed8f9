/** `tsg research`: runs the research graph (parallel sources, one synthesis) and prints its findings. */
import { buildResearchGraph, initialResearchState, type ResearchState } from "../examples/research/index.js";
import { GraphExecutionError, type Step } from "../index.js";
import { defineCommand } from "./command.js";
import { ENGINES, PARALLEL_ENGINES, streamOnEngine, type Engine } from "./engines.js";
import { formatUpdateLine } from "./format.js";
import { UsageError, type CliIO } from "./io.js";
import { cutLines, quote } from "../inspect/echo.js";

/**
 * The engines `--engine` accepts: the ones that run parallel graphs (fan-out, join), so a choice never
 * falls back silently. XState runs them in its superstep layout.
 */
export const RESEARCH_ENGINES: readonly Engine[] = ENGINES.filter(
  (engine) => engine === "xstate" || (PARALLEL_ENGINES as readonly Engine[]).includes(engine),
);

/** The `tsg research` command. */
export const researchCommand = defineCommand({
  name: "research",
  summary: "run the research graph: parallel sources, one synthesis",
  description: "Plans a topic, searches three sources in parallel (one superstep), then synthesizes once.",
  flags: {
    topic: { type: "string", valueHint: "TEXT", description: "what to research", default: "tides" },
    "show-updates": { type: "boolean", description: "print the fields each node updated, in declaration order within a superstep" },
    engine: { type: "choice", choices: RESEARCH_ENGINES, description: "the engine to run on", default: "mini" },
  },
  exitCodes: "0 summarized, 1 the run failed, 2 bad arguments.",
  async run({ flags }, io) {
    const { engine, topic } = flags;
    if (topic.trim() === "") throw new UsageError(`--topic must be non-blank text; got ${quote(topic)}.`);
    const input = initialResearchState(topic);
    const graph = buildResearchGraph();
    for (const warning of graph.warnings) io.stderr.write(`warning: ${warning.message}\n`);
    let last: Step<ResearchState> | undefined;
    try {
      for await (const step of streamOnEngine(engine, graph, input, {})) {
        if (flags["show-updates"] === true) io.stdout.write(formatUpdateLine(step.node, step.update) + "\n");
        last = step;
      }
    } catch (error) {
      if (!(error instanceof GraphExecutionError)) throw error;
      io.stderr.write(
        `tsg research: the run failed at ${error.path.join("/")}: ${cutLines(error.message)}\ncompleted: ${error.trace.join(" -> ") || "(none)"}\n`,
      );
      return 1;
    }
    const state = last?.state ?? input;
    io.stdout.write(`topic: ${state.topic}\nfindings: ${state.findings.length}\n`);
    for (const finding of state.findings) io.stdout.write(`- ${finding}\n`);
    io.stdout.write(`${state.summary ?? "No summary."}\n`);
    return state.summary === null ? 1 : 0;
  },
});

/**
 * Runs `tsg research` with the arguments after `research` and resolves with the exit code.
 *
 * @example
 * ```ts
 * const code = await runResearchCommand(["--topic", "tides"], { stdout: process.stdout, stderr: process.stderr });
 * ```
 */
export function runResearchCommand(argv: readonly string[], io: CliIO): Promise<number> {
  return researchCommand.run(argv, io);
}
