/**
 * What `invoke` and `stream` take (issue 35 §1): a run without a thread takes the whole state; a threaded
 * run takes a partial state merged through the reducers (docs/persistence.md's chat pattern: only the
 * new message), `null` to resume, or a `Command`. One signature each, so a wrong input is reported with
 * the reason, not as "no overload matches".
 */
import { describe, expectTypeOf, it } from "vitest";
import { append, Command, END, START, stateGraph, type RunOptions, type RunResult, type Step, type SuperstepValues } from "../../src/index.js";
import { MemoryCheckpointer, type ThreadRunOptions, type ThreadRunResult } from "../../src/persistence/index.js";

interface Message {
  role: "user" | "assistant";
  content: string;
}
interface Support {
  messages: Message[];
  category: "billing" | "other";
  refund: number | null;
}

const chat = stateGraph<Support>()({ reducers: { messages: append } })
  .addNode("reply", (s) => ({ messages: [{ role: "assistant" as const, content: `re: ${s.messages.length}` }] }))
  .addEdge(START, "reply")
  .addEdge("reply", END)
  .compile();
const checkpointer = new MemoryCheckpointer();
const next: Message = { role: "user", content: "and tomorrow?" };
const whole: Support = { messages: [next], category: "other", refund: null };

describe("a threaded run", () => {
  it("takes only the new message (a partial state), and resolves with a ThreadRunResult", () => {
    expectTypeOf(chat.invoke({ messages: [next] }, { threadId: "c", checkpointer })).resolves.toEqualTypeOf<
      ThreadRunResult<Support, "reply">
    >();
    chat.invoke({}, { threadId: "c" });
    chat.invoke(whole, { threadId: "c", checkpointer });
  });

  it("takes null to resume, and a Command", () => {
    chat.invoke(null, { threadId: "c", checkpointer });
    chat.invoke(new Command({ resume: true, update: { category: "billing" } }), { threadId: "c", checkpointer });
  });

  it("takes a Command whose goto names a node of the graph, or END (issue 35 §2)", () => {
    chat.invoke(new Command({ resume: true, goto: "reply" }), { threadId: "c", checkpointer });
    chat.invoke(new Command({ goto: END }), { threadId: "c", checkpointer });
    // @ts-expect-error - "replay" is not a node of the graph
    chat.invoke(new Command({ resume: true, goto: "replay" }), { threadId: "c", checkpointer });
    // @ts-expect-error - stream: the same
    chat.stream(new Command({ goto: "replay" }), { threadId: "c", checkpointer });
  });

  it("checks the partial state's fields and values", () => {
    // @ts-expect-error - "mesages" is not a field
    chat.invoke({ mesages: [next] }, { threadId: "c", checkpointer });
    // @ts-expect-error - refund is a number or null
    chat.invoke({ refund: "10" }, { threadId: "c", checkpointer });
    // @ts-expect-error - undefined is not a category (exactOptionalPropertyTypes): a key given is a value given
    chat.invoke({ category: undefined }, { threadId: "c", checkpointer });
    // @ts-expect-error - a Command's update holds only fields of the state
    chat.invoke(new Command({ update: { categroy: "billing" } }), { threadId: "c", checkpointer });
  });

  it("streams a partial state too", () => {
    expectTypeOf(chat.stream({ messages: [next] }, { threadId: "c", checkpointer })).toEqualTypeOf<AsyncIterable<Step<Support, "reply">>>();
    expectTypeOf(chat.stream(null, { threadId: "c", checkpointer, streamMode: "values" })).toEqualTypeOf<
      AsyncIterable<SuperstepValues<Support>>
    >();
  });
});

describe("a run without a thread", () => {
  it("takes the whole state and resolves with a RunResult", () => {
    expectTypeOf(chat.invoke(whole)).resolves.toEqualTypeOf<RunResult<Support, "reply">>();
    expectTypeOf(chat.invoke(whole, { maxSteps: 3 })).resolves.toEqualTypeOf<RunResult<Support, "reply">>();
    expectTypeOf(chat.stream(whole, { streamMode: "values" })).toEqualTypeOf<AsyncIterable<SuperstepValues<Support>>>();
  });

  it("refuses a partial state, null and a Command: only a thread merges or resumes", () => {
    // @ts-expect-error - without a threadId the input is the whole state
    chat.invoke({ messages: [next] });
    // @ts-expect-error - null resumes a thread: it needs a threadId
    chat.invoke(null);
    // @ts-expect-error - null resumes a thread, also with other options
    chat.invoke(null, { maxSteps: 3 });
    // @ts-expect-error - a Command continues a thread
    chat.invoke(new Command({ resume: true }));
    // @ts-expect-error - stream: the same
    chat.stream(null);
  });

  it("refuses an option that does not exist", () => {
    // @ts-expect-error - maxStep is not an option
    chat.invoke(whole, { maxStep: 3 });
    // @ts-expect-error - threadid is not an option (nor is the input partial without threadId)
    chat.invoke({ messages: [next] }, { threadid: "c" });
  });
});

declare const flag: boolean;

describe("options typed as the user types them (no false error)", () => {
  it("a generic wrapper passes its options through", () => {
    async function run<O extends RunOptions>(graph: typeof chat, state: Support, options: O) {
      return graph.invoke(state, options);
    }
    expectTypeOf(run(chat, whole, { maxSteps: 3 })).resolves.toEqualTypeOf<RunResult<Support, "reply">>();
    async function resume<O extends ThreadRunOptions>(graph: typeof chat, options: O) {
      return graph.invoke(null, options);
    }
    expectTypeOf(resume(chat, { threadId: "c", checkpointer })).resolves.toEqualTypeOf<ThreadRunResult<Support, "reply">>();
    function streamed<O extends RunOptions>(graph: typeof chat, state: Support, options: O) {
      return graph.stream(state, options);
    }
    expectTypeOf(streamed(chat, whole, {})).toEqualTypeOf<AsyncIterable<Step<Support, "reply">>>();
    function annotated(graph: typeof chat, options: RunOptions) {
      return graph.invoke(whole, options);
    }
    expectTypeOf(annotated(chat, {})).resolves.toEqualTypeOf<RunResult<Support, "reply">>();
  });

  it("options typed as a union, with or without a thread on each side", () => {
    const bounds = flag ? { maxSteps: 3 } : { recursionLimit: 4 };
    expectTypeOf(chat.invoke(whole, bounds)).resolves.toEqualTypeOf<RunResult<Support, "reply">>();
    chat.stream(whole, bounds);
    const thread = flag ? { threadId: "a", checkpointer } : { threadId: "b", maxSteps: 3 };
    expectTypeOf(chat.invoke({ messages: [next] }, thread)).resolves.toEqualTypeOf<ThreadRunResult<Support, "reply">>();
    const maybeThread = flag ? { threadId: "a", checkpointer } : { maxSteps: 3 };
    chat.invoke(whole, maybeThread);
    const threadId: string | undefined = flag ? "a" : undefined;
    expectTypeOf(chat.invoke(whole, { threadId, checkpointer })).resolves.toEqualTypeOf<RunResult<Support, "reply">>();
  });

  it("still refuses, in those forms, what it refused", () => {
    const thread = flag ? { threadId: "a", checkpointer } : { threadId: "b", maxSteps: 3 };
    // @ts-expect-error - "mesages" is not a field, also with union options
    chat.invoke({ mesages: [next] }, thread);
    const threadId: string | undefined = flag ? "a" : undefined;
    // @ts-expect-error - the threadId may be undefined: the run may start from its input, so it takes the whole state
    chat.invoke({ messages: [next] }, { threadId, checkpointer });
    // @ts-expect-error - maxStep is not an option, in a union
    chat.invoke(whole, flag ? { maxStep: 3 } : { recursionLimit: 4 });
    // @ts-expect-error - an unknown option next to a thread's
    chat.invoke(null, { threadId: "c", checkpointer, durablity: "sync" });
    // @ts-expect-error - stream: an unknown option
    chat.stream(whole, { streamMod: "values" });
    // @ts-expect-error - stream: not a mode
    chat.stream(whole, { streamMode: "value" });
  });
});
