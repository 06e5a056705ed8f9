import type { NodeContext } from "../../../src/index.js";
import { describe, expect, it } from "vitest";
import type { AgentMessage, AgentModel, ModelTurn } from "../../../src/examples/agent/index.js";
import { answerTurn, callTurn, runAgent, spiedTools, turnsModel, weatherCall } from "./_helpers.js";

describe("what the model receives", () => {
  it("only a copy of messages and the node's context: no counters, events or diagnostic tag", async () => {
    const model = turnsModel(callTurn(weatherCall("weather-1")), answerTurn("Done."));
    const { state } = await runAgent(model.model);
    expect(model.calls.map((args) => args.length)).toEqual([2, 2]);
    // The second argument is the model node's context (signal, writer, where it runs), not state.
    expect(model.calls.map((args) => (args[1] as NodeContext).node)).toEqual(["model", "model"]);
    expect(model.received[1]).toEqual(state.messages.slice(0, 3));
    const seen = JSON.stringify(model.calls);
    for (const hidden of ["tag-never-sent-7f3a", "diagnosticTag", "modelSteps", "events", "tools completed", "pendingToolCalls"]) {
      expect(seen).not.toContain(hidden);
    }
    // `toolCalls` is also a message field; the counter is the one holding a number.
    expect(seen).not.toMatch(/"toolCalls":\d/);
  });

  it("mutating the copy does not rewrite history", async () => {
    let turn = 0;
    const vandal: AgentModel = {
      generate(messages: AgentMessage[]): ModelTurn {
        (messages[0] as { content: string }).content = "rewritten question";
        messages.push({ role: "user", content: "injected" });
        return ++turn === 1 ? callTurn(weatherCall("weather-1")) : answerTurn("Done.");
      },
    };
    const { state } = await runAgent(vandal);
    expect(state.messages[0]).toEqual({ role: "user", content: "What is the weather in Tokyo?" });
    expect(state.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant"]);
  });

  it("erasing its copy of history does not let the model reuse a call id", async () => {
    const spies = spiedTools();
    let turn = 0;
    const forgetful: AgentModel = {
      generate(messages: AgentMessage[]): ModelTurn {
        messages.splice(1);
        turn += 1;
        return callTurn(weatherCall("weather-1"));
      },
    };
    const { state } = await runAgent(forgetful, { tools: spies.tools });
    expect(turn).toBe(2);
    expect(state.error).toBe("model_failed:ReusedCallId");
    expect(spies.weatherRun).toHaveBeenCalledTimes(1);
  });
});
