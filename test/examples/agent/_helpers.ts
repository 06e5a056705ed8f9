/** Test doubles shared by the agent tests. */
import { vi } from "vitest";
import {
  agentStepLimit,
  buildAgentGraph,
  initialAgentState,
  teachingTools,
  type AgentMessage,
  type AgentModel,
  type AgentOptions,
  type AgentTool,
  type ModelTurn,
  type ToolCall,
  type ToolSet,
} from "../../../src/examples/agent/index.js";

/** A model that plays back fixed turns (or throws) and records what it was given. */
export function turnsModel(...turns: ReadonlyArray<ModelTurn | Error | unknown>) {
  const received: AgentMessage[][] = [];
  const calls: unknown[][] = [];
  let index = 0;
  const model: AgentModel = {
    generate(...args: unknown[]) {
      calls.push(args);
      received.push(structuredClone(args[0] as AgentMessage[]));
      const turn = turns[index++];
      if (turn === undefined) throw new Error("turnsModel: no turn left");
      if (turn instanceof Error) throw turn;
      return turn as ModelTurn;
    },
  } as AgentModel;
  return {
    model,
    received,
    calls,
    get count() {
      return calls.length;
    },
  };
}

/** A turn requesting the given calls. */
export const callTurn = (...toolCalls: ToolCall[]): ModelTurn => ({ toolCalls, providerItems: [] });
/** A turn answering `text`. */
export const answerTurn = (text: string): ModelTurn => ({ finalAnswer: text, providerItems: [] });
/** A weather call with the given id. */
export const weatherCall = (callId: string, city = "Tokyo"): ToolCall => ({ callId, name: "get_teaching_weather", arguments: { city } });
/** A conversion call with the given id. */
export const convertCall = (callId: string, temperature_c: number | string | boolean = 18): ToolCall => ({
  callId,
  name: "celsius_to_fahrenheit",
  arguments: { temperature_c },
});

/** The teaching tools with spied handlers; `override` replaces a handler's behaviour. */
export function spiedTools(override: Partial<Record<"get_teaching_weather" | "celsius_to_fahrenheit", AgentTool["run"]>> = {}) {
  const weather = teachingTools["get_teaching_weather"] as AgentTool;
  const convert = teachingTools["celsius_to_fahrenheit"] as AgentTool;
  const weatherRun = vi.fn(override.get_teaching_weather ?? weather.run);
  const convertRun = vi.fn(override.celsius_to_fahrenheit ?? convert.run);
  const tools: ToolSet = {
    get_teaching_weather: { ...weather, run: weatherRun },
    celsius_to_fahrenheit: { ...convert, run: convertRun },
  };
  return { tools, weatherRun, convertRun, handlerCalls: () => weatherRun.mock.calls.length + convertRun.mock.calls.length };
}

/** Builds the graph and runs one question to the end with the budget-derived step limit. */
export async function runAgent(model: AgentModel, options: AgentOptions = {}, question = "What is the weather in Tokyo?") {
  const graph = buildAgentGraph(model, options);
  return graph.invoke(initialAgentState(question, { diagnosticTag: "tag-never-sent-7f3a" }), {
    maxSteps: agentStepLimit(options.maxModelSteps ?? 6),
  });
}
