/**
 * A node's `Command`: its goto names only the node's declared `ends` (a compile error otherwise), its
 * update only fields of the state, and the type-level topology checks follow the ends' edges.
 */
import { describe, expectTypeOf, it } from "vitest";
import type { GotoProblems } from "../../src/builder/command-gotos.js";
import type { UnknownUpdateFields } from "../../src/engine/command.js";
import { append, bindSpec, Command, defineGraph, END, Send, START, StateGraph, type CompiledGraph } from "../../src/index.js";
import { MemoryCheckpointer } from "../../src/persistence/index.js";

interface Ticket {
  urgent: boolean;
  log: string[];
}
const base = () => new StateGraph<Ticket>({ reducers: { log: append } });

describe("a node's Command goto", () => {
  it("compiles for a goto to a declared end: a name, a list, a Send, END", () => {
    const graph = base()
      .addNode("triage", (s) => new Command({ update: { log: ["triage"] }, goto: s.urgent ? "page" : "queue" }), { ends: ["page", "queue"] })
      .addNode("page", () => new Command({ goto: ["queue", new Send("queue", { urgent: true, log: [] })] }), { ends: ["queue"] })
      .addNode("queue", () => new Command({ goto: END }), { ends: [END], timeout: 1_000 })
      .addEdge(START, "triage")
      .compile();
    expectTypeOf(graph).toEqualTypeOf<CompiledGraph<Ticket, "triage" | "page" | "queue">>();
  });

  it("an async node, a node that returns a Command or a plain update, a Command with an update only", () => {
    base()
      .addNode("a", async (s) => (s.urgent ? new Command({ goto: "b" }) : { log: ["calm"] }), { ends: ["b"] })
      .addNode("b", () => new Command({ update: { urgent: false } }))
      .addEdge(START, "a")
      .addEdge("a", END)
      .addEdge("b", END)
      .compile();
  });

  it("does not compile for a goto outside the node's ends", () => {
    base()
      // @ts-expect-error - "page" is not one of triage's ends
      .addNode("triage", () => new Command({ goto: "page" }), { ends: ["queue"] });
    base()
      // @ts-expect-error - a node without ends may not goto anywhere
      .addNode("triage", () => new Command({ goto: "queue" }));
    base()
      // @ts-expect-error - a Send to a node outside the ends
      .addNode("triage", () => new Command({ goto: new Send("page", {}) }), { ends: ["queue"] });
  });

  it("does not compile for an update with a field the state lacks, or a resume", () => {
    base().addNode(
      "triage",
      // @ts-expect-error - "priority" is not a field of Ticket
      () => new Command({ update: { priority: 1 }, goto: "queue" }),
      { ends: ["queue"] },
    );
    // @ts-expect-error - resume answers an interrupt; a node's Command does not take one
    base().addNode("triage", () => new Command({ resume: "yes" }));
  });
});

describe("a Command's update held in a variable (issue 35 §2)", () => {
  const typo = { urgent: true, priorty: 1 };
  const sound = { urgent: true };
  const partial: Partial<Ticket> = { log: ["x"] };
  const checkpointer = new MemoryCheckpointer();
  const graph = base().addNode("queue", () => ({})).addEdge(START, "queue").addEdge("queue", END).compile();

  it("is refused when it has a key the state lacks: in a node, a defineGraph node and a thread's input", () => {
    // @ts-expect-error - "priorty" is not a field of Ticket, beside a valid key
    base().addNode("triage", () => new Command({ update: typo, goto: "queue" }), { ends: ["queue"] });
    // @ts-expect-error - the same in an async node that may return a plain update
    base().addNode("triage", async (s) => (s.urgent ? new Command({ update: typo }) : { urgent: false }));
    // @ts-expect-error - and in defineGraph
    defineGraph<Ticket>()({ nodes: { a: () => new Command({ update: typo }) }, edges: [[START, "a"], ["a", END]] });
    // @ts-expect-error - and as a thread's input
    void graph.invoke(new Command({ update: typo }), { threadId: "t", checkpointer });
    // @ts-expect-error - a fresh literal too (the same check; TypeScript's excess-property error no longer comes first)
    void graph.invoke(new Command({ update: { urgent: true, priorty: 1 } }), { threadId: "t", checkpointer });
  });

  it("names the key and the fix", () => {
    expectTypeOf<UnknownUpdateFields<"urgent" | "priorty", Ticket>>().toEqualTypeOf<{
      readonly priorty: { readonly 'Command: update has "priorty", which is not a field of the state; write only the state\'s fields': never };
    }>();
    expectTypeOf<UnknownUpdateFields<"urgent" | "log", Ticket>>().toEqualTypeOf<{}>();
  });

  it("is accepted with the state's keys only, typed Partial<S>, and where no state is known", () => {
    base().addNode("triage", () => new Command({ update: sound, goto: "queue" }), { ends: ["queue"] });
    base().addNode("triage", () => new Command({ update: partial }));
    defineGraph<Ticket>()({ nodes: { a: () => new Command({ update: sound }) }, edges: [[START, "a"], ["a", END]] });
    void graph.invoke(new Command({ update: sound, goto: "queue" }), { threadId: "t", checkpointer });
    // Built apart, a Command has no state to read its update against (documented: give it the state)
    const apart = new Command({ update: typo });
    expectTypeOf(apart.update).toEqualTypeOf<Partial<Record<string, unknown>> | undefined>();
  });
});

describe("the type-level topology sees the ends", () => {
  it("a node reached only through ends is reachable, and a node whose only rule is its ends leaves", () => {
    const ok = base()
      .addNode("a", () => new Command({ goto: "b" }), { ends: ["b"] })
      .addNode("b", () => undefined)
      .addEdge(START, "a")
      .addEdge("b", END);
    ok.compile();
    // A node with ends may still have its own edge (the Command adds to it).
    base()
      .addNode("a", () => new Command({ goto: "b" }), { ends: ["b"] })
      .addNode("b", () => undefined)
      .addEdge(START, "a")
      .addEdge("a", END)
      .addEdge("b", END)
      .compile();
  });

  it("without the ends, the same graph does not compile", () => {
    const without = base()
      .addNode("a", () => undefined)
      .addNode("b", () => undefined)
      .addEdge(START, "a")
      .addEdge("b", END);
    // @ts-expect-error - "a" has no outgoing edge and "b" is not reachable from START
    without.compile();
  });

  it("ends naming an undeclared node, or leading only into a closed cycle, do not compile", () => {
    const ghost = base()
      .addNode("a", () => undefined, { ends: ["ghost"] })
      .addEdge(START, "a")
      .addEdge("a", END);
    // @ts-expect-error - "ghost" is not a node
    ghost.compile();
    const closed = base()
      .addNode("a", () => new Command({ goto: "b" }), { ends: ["b"] })
      .addNode("b", () => new Command({ goto: "a" }), { ends: ["a"] })
      .addEdge(START, "a");
    // @ts-expect-error - neither "a" nor "b" can reach END
    closed.compile();
  });
});

describe("defineGraph and bindSpec declare ends", () => {
  const define = defineGraph<Ticket>();

  it("defineGraph: a goto to a declared end compiles, and the ends make their targets reachable", () => {
    const graph = define({
      reducers: { log: append },
      nodes: { triage: (s) => new Command({ goto: s.urgent ? "page" : END }), page: () => ({ log: ["page"] }) },
      edges: [
        [START, "triage"],
        ["page", END],
      ],
      ends: { triage: ["page", END] },
    });
    expectTypeOf(graph).toEqualTypeOf<CompiledGraph<Ticket, "triage" | "page">>();
  });

  it("defineGraph: a goto outside the ends does not compile, nor ends of an undeclared node", () => {
    define({
      // @ts-expect-error - "page" is not one of triage's ends
      nodes: { triage: () => new Command({ goto: "page" }), page: () => undefined },
      edges: [
        [START, "triage"],
        ["triage", END],
        ["page", END],
      ],
      ends: { triage: [END] },
    });
    define({
      nodes: { triage: () => undefined },
      edges: [
        [START, "triage"],
        ["triage", END],
      ],
      // @ts-expect-error - "ghost" is not a node
      ends: { ghost: [END] },
    });
  });

  it("bindSpec: the spec's ends bound to a node whose goto they list; a goto they do not list does not compile", () => {
    const spec = {
      nodes: ["triage", "page"],
      edges: [
        { from: START, to: "triage" },
        { from: "page", to: END },
      ],
      routes: [],
      ends: [{ from: "triage", to: ["page", END] }],
    } as const;
    bindSpec(spec, { nodes: { triage: (s: Ticket) => new Command({ goto: s.urgent ? "page" : END }), page: (_: Ticket) => undefined } });
    bindSpec(spec, {
      // @ts-expect-error - "queue" is not in the spec's ends for triage
      nodes: { triage: (_: Ticket) => new Command({ goto: "queue" }), page: (_: Ticket) => undefined },
    });
  });
});

describe("a Command's goto against its target's input (issue 35 §2)", () => {
  interface Research {
    topic: string;
    notes: string[];
  }
  const research = () => new StateGraph<Research>({ reducers: { notes: append } });
  const worker = (input: { doc: string }) => ({ notes: [input.doc] });

  it("compiles for a Send whose payload is the target's input, a list of them, and a name of a node that reads the state", () => {
    research()
      .addNode("sup", (s) => new Command({ goto: s.topic ? new Send("worker", { doc: s.topic }) : "write" }), { ends: ["worker", "write"] })
      .addNode("worker", worker)
      .addNode("write", () => ({}))
      .addEdge(START, "sup")
      .addEdge("worker", END)
      .addEdge("write", END)
      .compile();
    research()
      .addNode("sup", (s) => new Command({ goto: s.notes.map((doc) => new Send("worker", { doc })) }), { ends: ["worker"] })
      .addNode("worker", worker)
      .addEdge(START, "sup")
      .addEdge("worker", END)
      .compile();
    // A Send to a node that reads the state carries a (partial) state; a Command typed without its goto is not read.
    research()
      .addNode("sup", (s): Command<unknown, Research, "write"> => new Command({ goto: new Send("write", { topic: s.topic }) }), {
        ends: ["write"],
      })
      .addNode("write", () => ({}))
      .addEdge(START, "sup")
      .addEdge("write", END)
      .compile();
  });

  it("does not compile for a Send whose payload has a misspelled key, the wrong value type, or too little for a state reader", () => {
    const misspelled = research()
      .addNode("sup", (s) => new Command({ goto: new Send("worker", { dco: s.topic }) }), { ends: ["worker"] })
      .addNode("worker", worker)
      .addEdge(START, "sup")
      .addEdge("worker", END);
    // @ts-expect-error - compile(): node "sup" returns a Command that sends "worker" a payload with "dco", which its input does not have
    misspelled.compile();
    const wrongType = research()
      .addNode("sup", (s) => new Command({ goto: s.notes.map((n) => new Send("worker", { doc: n.length })) }), { ends: ["worker"] })
      .addNode("worker", worker)
      .addEdge(START, "sup")
      .addEdge("worker", END);
    // @ts-expect-error - the payload's doc is a number, the input's a string
    wrongType.compile();
    const stateReader = research()
      .addNode("sup", () => new Command({ goto: new Send("write", { topik: "x" }) }), { ends: ["write"] })
      .addNode("write", () => ({}))
      .addEdge(START, "sup")
      .addEdge("write", END);
    // @ts-expect-error - "write" reads the state, which has no "topik"
    stateReader.compile();
  });

  it("does not compile for a goto by name to a node that takes its own input", () => {
    const byName = research()
      .addNode("sup", () => new Command({ goto: "worker" }), { ends: ["worker"] })
      .addNode("worker", worker)
      .addEdge(START, "sup")
      .addEdge("worker", END);
    // @ts-expect-error - compile(): node "sup" returns a Command whose goto names "worker", which takes its own input
    byName.compile();
  });

  it("defineGraph: the same rule, at the node", () => {
    const define = defineGraph<Research>();
    define({
      reducers: { notes: append },
      nodes: { sup: (s) => new Command({ goto: new Send("worker", { doc: s.topic }) }), worker },
      edges: [
        [START, "sup"],
        ["worker", END],
      ],
      ends: { sup: ["worker"] },
    });
    define({
      reducers: { notes: append },
      nodes: {
        // @ts-expect-error - defineGraph: node "sup" returns a Command that sends "worker" a payload with "dco"
        sup: (s) => new Command({ goto: new Send("worker", { dco: s.topic }) }),
        worker,
      },
      edges: [
        [START, "sup"],
        ["worker", END],
      ],
      ends: { sup: ["worker"] },
    });
    define({
      reducers: { notes: append },
      nodes: {
        // @ts-expect-error - defineGraph: node "sup" returns a Command whose goto names "worker", which takes its own input
        sup: () => new Command({ goto: "worker" }),
        worker,
      },
      edges: [
        [START, "sup"],
        ["worker", END],
      ],
      ends: { sup: ["worker"] },
    });
  });

  it("names the node, the target and the wrong key", () => {
    type Problems<E> = GotoProblems<E, Research, { readonly worker: { doc: string } }>;
    expectTypeOf<Problems<readonly ["typed-state-graph: goto by Send", "sup", "worker", { dco: string }]>>().toEqualTypeOf<
      'node "sup" returns a Command that sends "worker" a payload with "dco", which its input does not have'
    >();
    expectTypeOf<Problems<readonly ["typed-state-graph: goto by name", "sup", "worker"]>>().toEqualTypeOf<
      'node "sup" returns a Command whose goto names "worker", which takes its own input, not the state; go to it with new Send("worker", input)'
    >();
    expectTypeOf<Problems<readonly ["typed-state-graph: goto by Send", "sup", "worker", { doc: string }]>>().toBeNever();
  });
});
