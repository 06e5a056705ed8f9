/**
 * The agent example declares its state with `agentStateSchema`, a Standard Schema it carries itself
 * (a JSON Schema and a checker of it, no zod; its literal is checked against `AgentState` at compile
 * time): every run of the example fits it, a wrong value is refused where it enters the state, and its
 * JSON Schema lists exactly the state's fields.
 */
import { describe, expect, it } from "vitest";
import {
  AGENT_STATE_FIELDS,
  AGENT_TASKS,
  type AgentState,
  agentStateSchema,
  agentStepLimit,
  buildAgentGraph,
  initialAgentState,
  ScriptedModel,
} from "../../../src/examples/agent/index.js";
import type { MemoryCheckpointer } from "../../../src/persistence/index.js";
import { expectEditRefused, expectSchemaFields } from "../_state-schema-checks.js";
import { executionFailure } from "../../helpers/execution-failure.js";

const validate = (value: unknown) => agentStateSchema["~standard"].validate(value);
const scripted = (task: (typeof AGENT_TASKS)[number]) => buildAgentGraph(new ScriptedModel({ city: "Tokyo", task, language: "en" }));

describe("agentStateSchema", () => {
  it.each(AGENT_TASKS)("accepts every state a scripted %s run commits (the run ends where it did without a schema)", async (task) => {
    const { state, steps } = await scripted(task).invoke(initialAgentState("q"), { maxSteps: agentStepLimit(6) });
    expect(state.finalAnswer).not.toBeNull();
    expect(steps.length).toBeGreaterThan(0);
    for (const step of steps) expect(validate(step.state)).toEqual({ value: step.state });
  });

  const user = { role: "user", content: "q" };
  const call = { callId: "c1", name: "get_teaching_weather", arguments: { city: "Tokyo" } };
  it.each([
    [
      "a tool call without an id",
      { pendingToolCalls: [{ name: "get_teaching_weather", arguments: {} }] },
      "pendingToolCalls[0].callId",
      "required",
    ],
    ["a message of no known role", { messages: [{ role: "system", content: "q" }] }, "messages[0].role", 'expected one of "user"'],
    [
      "an assistant message whose content is not text",
      { messages: [user, { role: "assistant", content: 42, toolCalls: [], providerItems: [] }] },
      "messages[1].content",
      "expected string or null",
    ],
    [
      "a tool call whose arguments are not JSON",
      { messages: [user, { role: "assistant", content: null, toolCalls: [{ ...call, arguments: { t: Number.NaN } }], providerItems: [] }] },
      "messages[1].toolCalls[0].arguments",
      "expected a JSON object",
    ],
    ["a negative counter", { modelSteps: -1 }, "modelSteps", "expected a number ≥ 0"],
    ["an answer that is not text", { finalAnswer: 42 }, "finalAnswer", "expected string or null"],
  ])("refuses %s at the input with INVALID_INPUT, naming the path", async (_what, change, path, message) => {
    const error = await executionFailure(scripted("weather").invoke({ ...initialAgentState("q"), ...change } as AgentState));
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.message).toMatch(new RegExp(`\\n  - ${path.replace(/[.[\]]/g, "\\$&")} \\((got |missing).*: ${message}`));
  });

  it("refuses an edit that breaks the state with INVALID_STATE, keeping the checkpoint", async () => {
    const graph = scripted("weather");
    const run = (checkpointer: MemoryCheckpointer) =>
      graph.invoke(initialAgentState("q"), { threadId: "t", checkpointer, maxSteps: agentStepLimit(6) });
    // Deliberately wrong, as a JavaScript caller could send it.
    const edit = { pendingToolCalls: [{ name: "get_teaching_weather", arguments: { city: "Tokyo" } }] } as unknown as Partial<AgentState>;
    await expectEditRefused(graph, run, edit, "pendingToolCalls[0].callId (missing): required");
  });

  it("is the graph's schema, and its JSON Schema lists exactly the state's fields, none other allowed", () => {
    expectSchemaFields(scripted("weather"), agentStateSchema, AGENT_STATE_FIELDS);
  });

  it("refuses an unknown field of the input", async () => {
    const error = await executionFailure(scripted("weather").invoke({ ...initialAgentState("q"), mood: "calm" } as AgentState));
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.message).toMatch(/^invoke: the input has fields the graph .*"mood"/);
  });
});
