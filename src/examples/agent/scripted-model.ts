/**
 * A deterministic stand-in for a language model, for tests and offline demos. It follows a fixed
 * script for one city and one task, and builds its requests and answer from the observations it
 * actually reads. It does not interpret the question.
 */
import { ContractViolation, type ModelTurn } from "./contracts.js";
import type { AgentModel } from "./model.js";
import type { AgentMessage, ToolMessage } from "./state.js";
import { isTeachingCity, LANGUAGES, NOTICES, TEACHING_CITIES, type Language, type TeachingCity } from "./teaching-data.js";

/** What the scripted model is asked to do. */
export const AGENT_TASKS = ["greet", "weather", "convert"] as const;
/** A scripted task: greet (no tools), weather (one lookup), convert (a lookup, then a conversion). */
export type AgentTask = (typeof AGENT_TASKS)[number];

/** Options of {@link ScriptedModel}. */
export interface ScriptedModelOptions {
  readonly city: TeachingCity;
  readonly task: AgentTask;
  readonly language: Language;
}

const GREETINGS: Readonly<Record<Language, string>> = {
  en: "Hello! Ask me about the teaching weather records for Tokyo or Paris.",
  "zh-CN": "你好！可以问我东京或巴黎的教学天气记录。",
};

/**
 * The scripted double. `convert` takes 3 model steps and 2 tool calls, `weather` 2 and 1, `greet` 1 and 0.
 *
 * @example
 * ```ts
 * const model = new ScriptedModel({ city: "Tokyo", task: "convert", language: "en" });
 * const graph = buildAgentGraph(model);
 * ```
 */
export class ScriptedModel implements AgentModel {
  readonly #options: ScriptedModelOptions;

  constructor(options: ScriptedModelOptions) {
    const { city, task, language } = (options ?? {}) as Partial<Record<keyof ScriptedModelOptions, unknown>>;
    if (!isTeachingCity(city))
      throw new TypeError(`ScriptedModel: city must be one of ${TEACHING_CITIES.join(", ")}; got ${String(city)}.`);
    if (!isOneOf(AGENT_TASKS, task))
      throw new TypeError(`ScriptedModel: task must be one of ${AGENT_TASKS.join(", ")}; got ${String(task)}.`);
    if (!isOneOf(LANGUAGES, language))
      throw new TypeError(`ScriptedModel: language must be one of ${LANGUAGES.join(", ")}; got ${String(language)}.`);
    this.#options = { city, task, language };
  }

  generate(messages: AgentMessage[]): ModelTurn {
    const { city, task, language } = this.#options;
    if (task === "greet") return answer(GREETINGS[language]);
    const weather = latestObservation(messages, "get_teaching_weather");
    if (weather === undefined) {
      return { toolCalls: [{ callId: "weather-1", name: "get_teaching_weather", arguments: { city } }], providerItems: [] };
    }
    const celsius = numberField(weather, "temperature_c");
    const condition = weather.content["condition"];
    if (typeof condition !== "string")
      throw new ContractViolation("InvalidResult", "ScriptedModel: the weather observation has no condition.");
    if (task === "weather") return answer(`${city}: ${celsius.toFixed(1)}°C, ${condition}. ${NOTICES[language]}`);
    const conversion = latestObservation(messages, "celsius_to_fahrenheit");
    if (conversion === undefined) {
      // The observed value, not a remembered one: change the record and the request follows.
      return {
        toolCalls: [{ callId: "convert-1", name: "celsius_to_fahrenheit", arguments: { temperature_c: celsius } }],
        providerItems: [],
      };
    }
    const fahrenheit = numberField(conversion, "temperature_f");
    return answer(`${city}: ${celsius.toFixed(1)}°C / ${fahrenheit.toFixed(1)}°F, ${condition}. ${NOTICES[language]}`);
  }
}

function isOneOf<const C extends string>(choices: readonly C[], value: unknown): value is C {
  return (choices as readonly unknown[]).includes(value);
}

function answer(text: string): ModelTurn {
  return { finalAnswer: text, providerItems: [] };
}

function latestObservation(messages: readonly AgentMessage[], tool: string): ToolMessage | undefined {
  return messages.findLast((message): message is ToolMessage => message.role === "tool" && message.name === tool);
}

function numberField(observation: ToolMessage, field: string): number {
  const value = observation.content[field];
  if (typeof value !== "number") {
    throw new ContractViolation("InvalidResult", `ScriptedModel: the ${observation.name} observation has no numeric ${field}.`);
  }
  return value;
}
