/** The question the agent command asks for a city and a task, in the chosen language. */
import type { AgentTask } from "./scripted-model.js";
import type { Language, TeachingCity } from "./teaching-data.js";

const QUESTIONS: Readonly<Record<Language, Readonly<Record<AgentTask, (city: TeachingCity) => string>>>> = {
  en: {
    greet: () => "Hello!",
    weather: (city) => `What is the weather in ${city}?`,
    convert: (city) => `What is the weather in ${city}, in Celsius and Fahrenheit?`,
  },
  "zh-CN": {
    greet: () => "你好！",
    weather: (city) => `${city} 的天气怎么样？`,
    convert: (city) => `${city} 的天气怎么样？请给出摄氏度和华氏度。`,
  },
};

/**
 * The user's question for a task. A live model reads it; the scripted model ignores it and follows its script.
 *
 * @example
 * ```ts
 * agentQuestion({ city: "Paris", task: "weather", language: "en" }); // "What is the weather in Paris?"
 * ```
 */
export function agentQuestion({
  city,
  task,
  language,
}: {
  readonly city: TeachingCity;
  readonly task: AgentTask;
  readonly language: Language;
}): string {
  return QUESTIONS[language][task](city);
}
