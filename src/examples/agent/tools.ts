/**
 * The two tools and their batch validation. The model sees only the definitions; the handlers stay
 * in the application, which checks a whole batch before it starts any of them.
 */
import { ContractViolation, type JsonObject, type ToolCall } from "./contracts.js";
import { fahrenheit, isTeachingCity, TEACHING_CITIES, TEACHING_RECORDS } from "./teaching-data.js";

/** A strict JSON-schema description of a tool, in the neutral shape both live adapters translate. */
export interface ToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly parameters: {
    readonly type: "object";
    readonly properties: Readonly<Record<string, JsonObject>>;
    readonly required: readonly string[];
    readonly additionalProperties: false;
  };
}

/** A tool: its definition, the checks beyond the schema, and the handler. */
export interface AgentTool {
  readonly definition: ToolDefinition;
  /** Throws a {@link ContractViolation} when the (key-checked) arguments are not acceptable. */
  readonly validate: (args: JsonObject) => void;
  /** Runs the tool on validated arguments; must resolve with a plain JSON object. */
  readonly run: (args: JsonObject) => unknown;
}

/** Tools by name. */
export type ToolSet = Readonly<Record<string, AgentTool>>;

const weatherTool: AgentTool = {
  definition: {
    name: "get_teaching_weather",
    description: "Returns the fixed teaching weather record of a city (not live weather).",
    parameters: {
      type: "object",
      properties: { city: { type: "string", enum: [...TEACHING_CITIES] } },
      required: ["city"],
      additionalProperties: false,
    },
  },
  validate(args) {
    if (!isTeachingCity(args["city"])) {
      throw new ContractViolation("UnsupportedCity", `get_teaching_weather: city must be one of ${TEACHING_CITIES.join(", ")}.`);
    }
  },
  run(args) {
    const city = args["city"];
    if (!isTeachingCity(city)) throw new ContractViolation("UnsupportedCity", "get_teaching_weather: the arguments were not validated.");
    return { ...TEACHING_RECORDS[city] };
  },
};

const conversionTool: AgentTool = {
  definition: {
    name: "celsius_to_fahrenheit",
    description: "Converts a finite Celsius temperature to Fahrenheit, rounded to one decimal.",
    parameters: {
      type: "object",
      properties: { temperature_c: { type: "number", description: "Degrees Celsius; a finite number." } },
      required: ["temperature_c"],
      additionalProperties: false,
    },
  },
  validate(args) {
    const value = args["temperature_c"];
    // Booleans and numeric strings are rejected rather than coerced: the schema says number.
    if (typeof value !== "number") {
      throw new ContractViolation("InvalidTemperature", "celsius_to_fahrenheit: temperature_c must be a number.");
    }
    if (!Number.isFinite(value)) {
      throw new ContractViolation("NonFiniteTemperature", "celsius_to_fahrenheit: temperature_c must be finite.");
    }
  },
  run(args) {
    return { temperature_f: fahrenheit(args["temperature_c"] as number) };
  },
};

/**
 * The agent's tools: `get_teaching_weather {city}` and `celsius_to_fahrenheit {temperature_c}`.
 *
 * @example
 * ```ts
 * await teachingTools.celsius_to_fahrenheit?.run({ temperature_c: 18 }); // { temperature_f: 64.4 }
 * ```
 */
export const teachingTools: ToolSet = Object.freeze({
  [weatherTool.definition.name]: weatherTool,
  [conversionTool.definition.name]: conversionTool,
});

/**
 * The definitions a model is offered, in a stable order.
 *
 * @example
 * ```ts
 * toolDefinitions().map((d) => d.name); // ["get_teaching_weather", "celsius_to_fahrenheit"]
 * ```
 */
export function toolDefinitions(tools: ToolSet = teachingTools): ToolDefinition[] {
  return Object.values(tools).map((tool) => tool.definition);
}

/**
 * Checks every call of a batch before any handler may run: a known tool, exactly the schema's keys,
 * then the tool's own checks. Throws the first {@link ContractViolation}.
 *
 * @example
 * ```ts
 * validateToolBatch([{ callId: "c1", name: "celsius_to_fahrenheit", arguments: { temperature_c: "18" } }]);
 * // throws ContractViolation, kind "InvalidTemperature"
 * ```
 */
export function validateToolBatch(calls: readonly ToolCall[], tools: ToolSet = teachingTools): void {
  for (const call of calls) {
    const tool = Object.hasOwn(tools, call.name) ? tools[call.name] : undefined;
    if (tool === undefined) {
      throw new ContractViolation(
        "UnknownTool",
        `validateToolBatch: "${call.name}" is not a tool; use one of ${Object.keys(tools).join(", ")}.`,
      );
    }
    const { properties, required } = tool.definition.parameters;
    const keys = Object.keys(call.arguments);
    const allowed = Object.keys(properties);
    if (keys.some((key) => !allowed.includes(key)) || required.some((key) => !keys.includes(key))) {
      throw new ContractViolation(
        "WrongKeys",
        `validateToolBatch: "${call.name}" takes exactly { ${required.join(", ")} }; got { ${keys.join(", ")} }.`,
      );
    }
    tool.validate(call.arguments);
  }
}
