/** What a live model is told about its job. The tool definitions travel separately. */

/**
 * The system instructions of a live run. They ask for tool use, but nothing here checks that the
 * model obeyed: a contract is not a truth check (see docs/agent.md).
 *
 * @example
 * ```ts
 * client.responses.create({ model, instructions: AGENT_INSTRUCTIONS, input, tools, max_output_tokens: 4096 });
 * ```
 */
export const AGENT_INSTRUCTIONS = [
  "You answer questions about the fixed teaching weather records of Tokyo and Paris.",
  "Read a city's record with get_teaching_weather, and convert a temperature you observed with celsius_to_fahrenheit; never invent numbers.",
  "The records are fixed teaching data, not live weather: say so in your answer.",
  "Answer in the language of the question, in one or two sentences.",
].join(" ");
