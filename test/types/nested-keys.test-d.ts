/**
 * A misspelled key inside a nested object of an update (issue 35 §2, audit gap 2): `{ messages: [{ role,
 * toolcalls }] }` where `Message` says `toolCalls`. Reported when the key is spelled like a key of the
 * field's type that the value lacks (letter case, `_`, `-`), in a builder node's return and a `Command`'s
 * update (inline or held in a variable); any other extra key stays valid, since a variable of a subtype
 * has the same type as the literal.
 */
import { describe, expectTypeOf, it } from "vitest";
import { append, Command, stateGraph } from "../../src/index.js";
import type { NestedKeyCheck } from "../../src/builder/messages.js";

interface ToolCall {
  id: string;
  name: string;
}
interface Message {
  role: string;
  content: string;
  toolCalls?: ToolCall[];
  meta?: { traceId?: string; source?: string };
}
/** A subtype with a key of its own: a value of it in `messages` is valid. */
interface ToolMessage extends Message {
  toolCallId: string;
}
interface S {
  messages: Message[];
  settings: { model: string; maxTokens?: number };
  count: number;
}

declare const role: string;
declare const reply: ToolMessage;

const chat = stateGraph<S>()({ reducers: { messages: append } });

describe("a misspelled key inside a nested object of an update", () => {
  it("is refused in a node's return, by letter case, `_` or `-`, at any depth", () => {
    // @ts-expect-error - "toolcalls" for "toolCalls"
    chat.addNode("a", () => ({ messages: [{ role, content: "", toolcalls: [] }] }));
    // @ts-expect-error - "tool_calls" for "toolCalls"
    chat.addNode("b", () => ({ messages: [{ role, content: "", tool_calls: [] }] }));
    // @ts-expect-error - "max-tokens" for "maxTokens", in an object field
    chat.addNode("c", () => ({ settings: { model: "m", "max-tokens": 10 } }));
    // @ts-expect-error - "traceid" for "traceId", two levels down
    chat.addNode("d", () => ({ messages: [{ role, content: "", meta: { source: "s", traceid: "t" } }] }));
    // @ts-expect-error - on one path of the node
    chat.addNode("e", async (s) => (s.count > 1 ? { count: 1 } : { messages: [{ role, content: "", toolcalls: [] }] }));
  });

  it("is refused in a Command's update, inline or held in a variable", () => {
    // @ts-expect-error - "toolcalls" for "toolCalls"
    chat.addNode("a", () => new Command({ update: { messages: [{ role, content: "", toolcalls: [] }] }, goto: "b" }), { ends: ["b"] });
    const changes = { messages: [{ role, content: "", toolcalls: [] }] };
    // @ts-expect-error - the same update from a variable
    chat.addNode("b", () => new Command({ update: changes }));
  });

  it("names the key, the field and the key meant", () => {
    type Check = NestedKeyCheck<"addNode", "a", { messages: { role: string; content: string; toolcalls: never[] }[] }, S>;
    expectTypeOf<keyof Check>().toEqualTypeOf<`addNode: node "a" returns "toolcalls" inside "messages", where the field's type has "toolCalls"; rename it to "toolCalls"`>();
  });

  it("leaves every other extra key valid: a subtype's own key, a key beside the one it resembles", () => {
    chat.addNode("a", () => ({ messages: [reply] }));
    chat.addNode("b", () => ({ messages: [{ role, content: "", toolCallId: "c1" }] }));
    chat.addNode("c", () => ({ messages: [{ role, content: "", toolCalls: [{ id: "1", name: "n", ID: "x" }] }] }));
    chat.addNode("d", () => ({ messages: [{ role, content: "", toolCalls: [{ id: "1", name: "n" }] }], count: 1 }));
    chat.addNode("e", () => new Command({ update: { messages: [reply] } }));
  });
});
