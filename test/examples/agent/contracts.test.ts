import { describe, expect, it } from "vitest";
import {
  AGENT_STATE_FIELDS,
  CONTRACT_VIOLATION_CODES,
  ContractViolation,
  failureKind,
  initialAgentState,
  validateModelTurn,
  validateToolCall,
} from "../../../src/examples/agent/index.js";
import { GraphError } from "../../../src/index.js";

function violationOf(action: () => unknown): ContractViolation {
  try {
    action();
  } catch (error) {
    if (error instanceof ContractViolation) return error;
    throw error;
  }
  throw new Error("expected a ContractViolation");
}

describe("ContractViolation", () => {
  it("is a GraphError whose SCREAMING_CASE code names the broken contract; kind is the label the state records", () => {
    const violation = violationOf(() => validateModelTurn({ finalAnswer: " ", providerItems: [] }));
    expect(violation).toBeInstanceOf(GraphError);
    expect([violation.code, violation.kind]).toEqual(["BLANK_ANSWER", "BlankAnswer"]);
    expect(failureKind(violation)).toBe("BlankAnswer");
  });

  it("has one code per kind, each SCREAMING_CASE", () => {
    const codes = Object.values(CONTRACT_VIOLATION_CODES);
    expect(new Set(codes).size).toBe(codes.length);
    expect(codes.filter((code) => !/^[A-Z][A-Z_]*[A-Z]$/.test(code))).toEqual([]);
  });
});

describe("initialAgentState", () => {
  it("starts with the question as the only message, counters at zero and nothing pending", () => {
    expect(initialAgentState("What is the weather in Tokyo?", { diagnosticTag: "t" })).toEqual({
      messages: [{ role: "user", content: "What is the weather in Tokyo?" }],
      pendingToolCalls: [],
      finalAnswer: null,
      error: null,
      modelSteps: 0,
      toolCalls: 0,
      events: [],
      diagnosticTag: "t",
    });
  });

  it.each([[""], ["   "], ["\n\t"], [undefined], [42]])("rejects the blank or non-text question %j", (question) => {
    expect(() => initialAgentState(question as string)).toThrow(/^initialAgentState: the question must be non-blank text/);
  });

  it("AGENT_STATE_FIELDS lists every field of the state, so the graph rejects nothing it should accept", () => {
    expect([...AGENT_STATE_FIELDS].sort()).toEqual(Object.keys(initialAgentState("q")).sort());
  });
});

describe("validateToolCall", () => {
  it("accepts a call and returns a detached copy of only its three fields", () => {
    const args = { city: "Tokyo", nested: { list: [1, 2.5, null, true] } };
    const call = validateToolCall({ callId: "c1", name: "get_teaching_weather", arguments: args, extra: "dropped" });
    expect(call).toEqual({ callId: "c1", name: "get_teaching_weather", arguments: args });
    args.nested.list.push(3);
    expect(call.arguments).toEqual({ city: "Tokyo", nested: { list: [1, 2.5, null, true] } });
  });

  it.each([
    ["a blank id", { callId: " ", name: "get_teaching_weather", arguments: {} }],
    ["a missing id", { name: "get_teaching_weather", arguments: {} }],
    ["a numeric id", { callId: 1, name: "get_teaching_weather", arguments: {} }],
    ["a blank name", { callId: "c1", name: "", arguments: {} }],
    ["arguments that are an array", { callId: "c1", name: "x", arguments: [] }],
    ["arguments that are null", { callId: "c1", name: "x", arguments: null }],
    ["arguments that are JSON text", { callId: "c1", name: "x", arguments: '{"city":"Tokyo"}' }],
    ["an infinite number", { callId: "c1", name: "x", arguments: { t: Infinity } }],
    ["NaN", { callId: "c1", name: "x", arguments: { t: Number.NaN } }],
    ["a nested non-finite number", { callId: "c1", name: "x", arguments: { a: { b: [-Infinity] } } }],
    ["an undefined value", { callId: "c1", name: "x", arguments: { t: undefined } }],
    ["a Date", { callId: "c1", name: "x", arguments: { when: new Date(0) } }],
    ["a function", { callId: "c1", name: "x", arguments: { f: () => 1 } }],
    ["a class instance as arguments", { callId: "c1", name: "x", arguments: new (class Args {})() }],
    ["not an object at all", "get_teaching_weather(Tokyo)"],
  ])("rejects %s", (_label, value) => {
    expect(violationOf(() => validateToolCall(value)).kind).toBe("InvalidToolCall");
  });
});

describe("validateModelTurn", () => {
  it("accepts an answer and a batch of calls", () => {
    expect(validateModelTurn({ finalAnswer: "Hi.", providerItems: [] })).toEqual({ finalAnswer: "Hi.", providerItems: [] });
    const calls = [
      { callId: "a", name: "get_teaching_weather", arguments: { city: "Tokyo" } },
      { callId: "b", name: "get_teaching_weather", arguments: { city: "Paris" } },
    ];
    expect(validateModelTurn({ toolCalls: calls, providerItems: [{ type: "reasoning" }] })).toEqual({
      toolCalls: calls,
      providerItems: [{ type: "reasoning" }],
    });
  });

  it.each([
    [
      "both an answer and calls",
      { finalAnswer: "Hi.", toolCalls: [{ callId: "a", name: "n", arguments: {} }], providerItems: [] },
      "InvalidTurn",
    ],
    ["neither an answer nor calls", { providerItems: [] }, "InvalidTurn"],
    ["an empty list of calls", { toolCalls: [], providerItems: [] }, "InvalidTurn"],
    ["a blank answer", { finalAnswer: "  \n", providerItems: [] }, "BlankAnswer"],
    ["an empty answer", { finalAnswer: "", providerItems: [] }, "BlankAnswer"],
    [
      "a call id used twice in the turn",
      {
        toolCalls: [
          { callId: "a", name: "n", arguments: {} },
          { callId: "a", name: "m", arguments: {} },
        ],
        providerItems: [],
      },
      "DuplicateCallId",
    ],
    ["an invalid call", { toolCalls: [{ callId: "a", name: "n", arguments: { t: Infinity } }], providerItems: [] }, "InvalidToolCall"],
    ["missing provider items", { finalAnswer: "Hi." }, "InvalidTurn"],
    ["provider items that are not JSON objects", { finalAnswer: "Hi.", providerItems: ["text"] }, "InvalidTurn"],
    ["a non-object turn", "Tokyo is 18 degrees", "InvalidTurn"],
  ])("rejects %s", (_label, turn, kind) => {
    expect(violationOf(() => validateModelTurn(turn)).kind).toBe(kind);
  });

  it("copies the provider items, so the model keeps no handle on state", () => {
    const items = [{ type: "message", content: [{ text: "Hi." }] }];
    const turn = validateModelTurn({ finalAnswer: "Hi.", providerItems: items });
    (items[0]?.content[0] as { text: string }).text = "changed";
    expect(turn.providerItems).toEqual([{ type: "message", content: [{ text: "Hi." }] }]);
  });
});

describe("failureKind", () => {
  it("keeps a violation's kind and an error's class name, never the message", () => {
    expect(failureKind(new ContractViolation("WrongKeys", "private detail"))).toBe("WrongKeys");
    expect(failureKind(new TypeError("private detail"))).toBe("TypeError");
    class QuotaError extends Error {}
    expect(failureKind(new QuotaError("private detail"))).toBe("QuotaError");
    expect(failureKind("a thrown string with private detail")).toBe("NonErrorThrown");
  });

  it("falls back to Error when a name could smuggle text into state", () => {
    const error = new Error("x");
    error.name = "key sk-123 leaked";
    expect(failureKind(error)).toBe("Error");
  });
});
