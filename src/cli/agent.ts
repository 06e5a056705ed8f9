/** `tsg agent`: runs the model ⇄ tools loop, scripted by default or against a live provider with `--live`. */
import {
  AGENT_TASKS,
  agentQuestion,
  agentStepLimit,
  buildAgentGraph,
  DEFAULT_MAX_MODEL_STEPS,
  DEFAULT_MAX_TOOL_CALLS,
  initialAgentState,
  LANGUAGES,
  ScriptedModel,
  TEACHING_CITIES,
  validateModelTurn,
  type AgentModel,
  type AgentState,
  type ScriptedModelOptions,
} from "../examples/agent/index.js";
import {
  createLiveModel,
  LIVE_APIS,
  LiveSetupError,
  openLiveClient,
  readLiveSettings,
  type FetchLike,
  type LiveApi,
  type LiveClient,
  type LiveEnv,
} from "../examples/agent/live/index.js";
import { GraphError, GraphExecutionError, type CompiledGraph, type Step } from "../index.js";
import { formatUpdateLine } from "./format.js";
import { ENGINES, streamOnEngine, type Engine } from "./engines.js";
import { UsageError, type CliIO, type Command } from "./io.js";
import { defineCommand, type FlagTable, type FlagValues } from "./command.js";
import { cutLines } from "../inspect/echo.js";

/** The engines `--engine` accepts: only engines that exist, so a choice never falls back silently. */
export const AGENT_ENGINES = ENGINES;

const FLAGS = {
  city: { type: "choice", choices: TEACHING_CITIES, description: "the city to ask about", default: "Tokyo" },
  task: { type: "choice", choices: AGENT_TASKS, description: "what to ask", default: "convert" },
  language: { type: "choice", choices: LANGUAGES, description: "answer language", default: "en" },
  "max-model-steps": {
    type: "integer",
    min: 1,
    description: "model requests allowed, failed ones included",
    default: DEFAULT_MAX_MODEL_STEPS,
  },
  "max-tool-calls": { type: "integer", min: 0, description: "tool runs allowed, failed ones included", default: DEFAULT_MAX_TOOL_CALLS },
  "show-updates": { type: "boolean", description: "print the fields each node updated" },
  engine: { type: "choice", choices: AGENT_ENGINES, description: "the engine to run on", default: "mini" },
  live: { type: "boolean", description: "ask a real model over the network (billed; needs credentials, see below)" },
  api: { type: "choice", choices: LIVE_APIS, description: "the live API", defaultHelp: "chat for DeepSeek, responses otherwise" },
  stream: { type: "boolean", description: "with --live: print the model's tokens as they arrive (mini engine)" },
} as const satisfies FlagTable;

const NOTES = `Live credentials: DEEPSEEK_API_KEY and DEEPSEEK_MODEL, or OPENAI_API_KEY and OPENAI_MODEL
(and OPENAI_BASE_URL for another OpenAI-compatible provider). Without them --live exits with 2;
it never falls back to the scripted model.`;

/** What `tsg agent` reads from outside the arguments; tests pass their own. */
export interface AgentCommandEnvironment {
  /** Default `process.env`. */
  readonly env?: LiveEnv;
  /** Replaces the global `fetch` of live runs, so tests never touch the network. */
  readonly fetch?: FetchLike;
}

interface PreparedRun {
  readonly input: AgentState;
  readonly script: ScriptedModelOptions;
  readonly maxModelSteps: number;
  readonly maxToolCalls: number;
  readonly showUpdates: boolean;
  readonly engine: Engine;
  /** The live API, or undefined for the scripted model. */
  readonly live: LiveApi | "default" | undefined;
  /** Print the live model's tokens as they arrive. */
  readonly stream: boolean;
}

/**
 * `tsg agent` reading the given environment and fetch (tests pass their own, so they never touch the
 * network); {@link agentCommand} reads `process.env` and the global `fetch`.
 *
 * @example
 * ```ts
 * await agentCommandWith({ env: {} }).run(["--live"], io); // 2: no credentials
 * ```
 */
export function agentCommandWith(outside: AgentCommandEnvironment): Command {
  return defineCommand({
    name: "agent",
    summary: "run the model ⇄ tools loop (scripted, or --live against an OpenAI-compatible API)",
    description: "Runs the model ⇄ tools loop on the teaching weather data. Offline by default (a scripted model).",
    flags: FLAGS,
    notes: NOTES,
    exitCodes: "0 a final answer, 1 no final answer, 2 bad arguments or live setup.",
    run: async ({ flags }, io) => {
      const run = prepare(flags);
      if (run.live === undefined) return execute(run, new ScriptedModel(run.script), io);
      let client: LiveClient;
      try {
        client = await openLiveClient(readLiveSettings(outside.env ?? process.env), outside.fetch ? { fetch: outside.fetch } : {});
      } catch (error) {
        if (error instanceof LiveSetupError) throw new UsageError(error.message);
        throw error;
      }
      try {
        const api = run.live === "default" ? client.settings.defaultApi : run.live;
        const provider = client.settings.provider === "deepseek" ? "DeepSeek" : client.settings.baseURL;
        io.stderr.write(
          `live run: ${provider}, ${api === "chat" ? "Chat Completions" : "Responses API"}, model ${client.settings.model} (network access, billed usage)\n`,
        );
        const live = rejectingModel(createLiveModel(client, api, { stream: run.stream }));
        const code = await execute(run, live.model, io);
        const rejected = live.rejected();
        if (rejected !== undefined) {
          io.stderr.write(
            `tsg agent: the model's reply was rejected (${rejected.code}), so nothing of it was stored: ${cutLines(rejected.message)}\n`,
          );
        }
        return code;
      } finally {
        client.close();
      }
    },
  });
}

/** `tsg agent`, for the command table. */
export const agentCommand: Command = agentCommandWith({});

/**
 * Runs `tsg agent` with the arguments after `agent` and resolves with the exit code: 0 with a final
 * answer, 1 without one, 2 for bad arguments or a live run that cannot start.
 *
 * @example
 * ```ts
 * const code = await runAgentCommand(["--task", "weather", "--max-model-steps", "1"], { stdout: process.stdout, stderr: process.stderr });
 * // code === 1, after "error: model_budget_exhausted" and "No final answer."
 * ```
 */
export function runAgentCommand(argv: readonly string[], io: CliIO, outside: AgentCommandEnvironment = {}): Promise<number> {
  return agentCommandWith(outside).run(argv, io);
}

/**
 * A live model whose replies are checked against the turn contract as they arrive, remembering the last
 * coded error a reply was rejected with. The run's state keeps only the fault's kind
 * (`model_failed:ProviderResponseError`: a message may quote the provider); the command prints the code
 * and the fix, so a user pointing `--live` at a wrong endpoint learns what was wrong with its reply.
 */
function rejectingModel(model: AgentModel): { readonly model: AgentModel; rejected(): GraphError | undefined } {
  let rejected: GraphError | undefined;
  return {
    model: {
      generate: async (messages, context) => {
        try {
          return validateModelTurn(await model.generate(messages, context));
        } catch (error) {
          if (error instanceof GraphError) rejected = error;
          throw error;
        }
      },
    },
    rejected: () => rejected,
  };
}

/** Turns the flags into a validated run, or throws a UsageError. */
function prepare(values: FlagValues<typeof FLAGS>): PreparedRun {
  const { engine, city, task, language, api, live, stream } = values;
  if (api !== undefined && !live) throw new UsageError("--api chooses the live API; add --live, or drop --api.");
  if (stream && !live) throw new UsageError("--stream prints a live model's tokens; add --live, or drop --stream.");
  if (stream && engine !== "mini") throw new UsageError("--stream runs on the mini engine; drop --engine or --stream.");
  return {
    input: initialAgentState(agentQuestion({ city, task, language }), { diagnosticTag: "tsg-agent" }),
    script: { city, task, language },
    maxModelSteps: values["max-model-steps"],
    maxToolCalls: values["max-tool-calls"],
    showUpdates: values["show-updates"],
    engine,
    live: live ? (api ?? "default") : undefined,
    stream,
  };
}

/** The run's steps, with each token of the model's messages printed as it arrives (a line ends each model turn). */
async function* withTokens(
  graph: CompiledGraph<AgentState>,
  input: AgentState,
  maxModelSteps: number,
  io: CliIO,
): AsyncGenerator<Step<AgentState>> {
  let open = false;
  for await (const chunk of graph.stream(input, { maxSteps: agentStepLimit(maxModelSteps), streamMode: ["messages", "updates"] })) {
    if (chunk[0] === "messages") {
      io.stdout.write(chunk[1].delta);
      open = true;
    } else if (chunk[0] === "updates") {
      if (open) io.stdout.write("\n");
      open = false;
      yield chunk[1];
    }
  }
}

async function execute(run: PreparedRun, model: AgentModel, io: CliIO): Promise<number> {
  const graph = buildAgentGraph(model, { maxModelSteps: run.maxModelSteps, maxToolCalls: run.maxToolCalls });
  let state = run.input;
  try {
    for await (const step of run.stream
      ? withTokens(graph, run.input, run.maxModelSteps, io)
      : streamOnEngine(run.engine, graph, run.input, { maxSteps: agentStepLimit(run.maxModelSteps) })) {
      if (run.showUpdates) io.stdout.write(formatUpdateLine(step.node, step.update) + "\n");
      state = step.state;
    }
  } catch (error) {
    if (error instanceof GraphExecutionError) {
      io.stderr.write(
        `tsg agent: the run failed at ${error.node}: ${cutLines(error.message)}\ncompleted: ${error.trace.join(" -> ") || "(none)"}\n`,
      );
      return 1;
    }
    throw error;
  }
  io.stdout.write(`model calls: ${state.modelSteps} tool attempts: ${state.toolCalls}\n`);
  io.stdout.write(`messages: ${state.messages.map((message) => message.role).join(", ")}\n`);
  io.stdout.write(`pending tool calls: ${state.pendingToolCalls.length}\n`);
  io.stdout.write(`error: ${state.error ?? "none"}\n`);
  io.stdout.write(`${state.finalAnswer ?? "No final answer."}\n`);
  return state.finalAnswer !== null ? 0 : 1;
}
