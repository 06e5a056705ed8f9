/**
 * The seed's agent loop, verified (issue 41 §4): the model is replaced by an arbitrary of replies (answers,
 * tool calls to known and unknown tools with good and bad arguments, malformed turns, thrown errors), drawn
 * one per request by fast-check, while both nodes run as written. After every superstep, and at the end:
 * the run stays within its budgets and ends, no handler runs on a call its contract refuses (so never an
 * unknown tool), and an answer in state is always one the model gave in a turn that passed the checks.
 * Replay a failure with `PROPERTY_SEED=<seed> PROPERTY_PATH=<path>` (printed by fast-check).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  agentStepLimit,
  buildAgentGraph,
  initialAgentState,
  teachingTools,
  validateModelTurn,
  validateToolBatch,
  type AgentModel,
  type AgentState,
  type AgentTool,
  type ToolSet,
} from "../../../src/examples/agent/index.js";
import { propertyParams } from "../../properties/arbitraries.js";

const KNOWN_TOOLS = Object.keys(teachingTools);

/** A call id: usually fresh, sometimes one an earlier turn used (the node refuses a reused id). */
const callId = fc.oneof({ weight: 5, arbitrary: fc.nat().map((n) => `call_${n}`) }, { weight: 1, arbitrary: fc.constantFrom("c1", "") });

/** A call the tools' contracts accept. */
const validCall = fc.oneof(
  fc.record({ callId, name: fc.constant("get_teaching_weather"), arguments: fc.record({ city: fc.constantFrom("Tokyo", "Paris") }) }),
  fc.record({
    callId,
    name: fc.constant("celsius_to_fahrenheit"),
    arguments: fc.record({ temperature_c: fc.integer({ min: -60, max: 60 }) }),
  }),
);

/** A call a model might get wrong: unknown names, wrong keys, wrong types, an unsupported city. */
const wrongCall = fc.record({
  callId,
  name: fc.constantFrom(...KNOWN_TOOLS, "delete_files", "get_weather", ""),
  arguments: fc.oneof(
    fc.record({ city: fc.constantFrom("Atlantis", "Tokyo") }),
    fc.record({ temperature_c: fc.oneof(fc.constant("18"), fc.constant(Number.NaN), fc.constant(true)) }),
    fc.constant({}),
    fc.constant({ city: "Tokyo", days: 3 }),
  ),
});

const proposedCall = fc.oneof({ weight: 4, arbitrary: validCall }, { weight: 1, arbitrary: wrongCall });

/** One reply: a turn the checks accept or refuse, a value that is no turn at all, or a thrown provider error. */
const reply = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({ toolCalls: fc.array(proposedCall, { minLength: 1, maxLength: 2 }), providerItems: fc.constant([]) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ finalAnswer: fc.constantFrom("Tokyo: 18.0°C, cloudy.", "   ", ""), providerItems: fc.constant([]) }),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom<unknown>(
      null,
      42,
      { finalAnswer: "both", toolCalls: [], providerItems: [] },
      { finalAnswer: 7, providerItems: [] },
      { finalAnswer: "no items" },
      { toolCalls: [], providerItems: [] },
    ),
  },
  { weight: 1, arbitrary: fc.constant(new Error("provider unavailable")) },
);

/** The teaching tools, recording every handler call whose arguments the tool's contract would refuse. */
function watchedTools(refused: string[]): ToolSet {
  const watched: Record<string, AgentTool> = {};
  for (const [name, tool] of Object.entries(teachingTools)) {
    watched[name] = {
      ...tool,
      run(args) {
        try {
          validateToolBatch([{ callId: "watch", name, arguments: args }]);
        } catch {
          refused.push(`${name}(${JSON.stringify(args)})`);
        }
        return tool.run(args);
      },
    };
  }
  return watched;
}

/** What must hold after every superstep; a sentence when it does not. */
function broken(
  state: AgentState,
  budgets: { maxModelSteps: number; maxToolCalls: number },
  given: readonly unknown[],
): string | undefined {
  if (state.modelSteps > budgets.maxModelSteps) return `modelSteps ${state.modelSteps} > ${budgets.maxModelSteps}`;
  if (state.toolCalls > budgets.maxToolCalls) return `toolCalls ${state.toolCalls} > ${budgets.maxToolCalls}`;
  const unknown = state.messages.find((message) => message.role === "tool" && !KNOWN_TOOLS.includes(message.name));
  if (unknown !== undefined) return `an observation of the unknown tool ${JSON.stringify(unknown)}`;
  if (state.finalAnswer !== null) {
    if (state.error !== null) return `an answer beside the error ${state.error}`;
    const checked = given.some((turn) => {
      try {
        return validateModelTurn(turn).finalAnswer === state.finalAnswer;
      } catch {
        return false;
      }
    });
    if (!checked) return `the answer ${JSON.stringify(state.finalAnswer)} is not from a turn that passed the checks`;
  }
  return undefined;
}

describe("the agent loop under arbitrary model replies", () => {
  it("ends within its budgets, never runs an unknown tool or refused arguments, never answers unchecked", async () => {
    const endings = { answered: 0, failed: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 0, max: 5 }),
        fc.gen(),
        async (maxModelSteps, maxToolCalls, gen) => {
          const given: unknown[] = [];
          const model: AgentModel = {
            generate() {
              const turn = gen(() => reply);
              given.push(turn);
              if (turn instanceof Error) throw turn;
              // A model's reply is untrusted input: the node checks it, so the double may return anything.
              return turn as ReturnType<AgentModel["generate"]>;
            },
          };
          const refused: string[] = [];
          const budgets = { maxModelSteps, maxToolCalls };
          const graph = buildAgentGraph(model, { ...budgets, tools: watchedTools(refused) });
          const input = initialAgentState("What is the weather in Tokyo, in Fahrenheit?");
          let last: AgentState = input;
          for await (const { state } of graph.stream(input, { streamMode: "values", maxSteps: agentStepLimit(maxModelSteps) })) {
            last = state;
            const problem = broken(state, budgets, given);
            if (problem !== undefined) throw new Error(`after a superstep: ${problem}`);
          }
          expect(refused).toEqual([]);
          expect(last.pendingToolCalls).toEqual([]);
          // The run ended (no STEP_LIMIT error reached here) with exactly one of an answer or a safe error code.
          expect((last.finalAnswer === null) !== (last.error === null)).toBe(true);
          if (last.error !== null) expect(last.error).toMatch(/^[a-z_]+(:[A-Za-z][A-Za-z0-9_]*)?$/);
          endings[last.finalAnswer !== null ? "answered" : "failed"] += 1;
        },
      ),
      propertyParams(300),
    );
    // Both endings are exercised, so neither half of the property is vacuous.
    expect(endings.answered).toBeGreaterThan(10);
    expect(endings.failed).toBeGreaterThan(10);
  });
});
