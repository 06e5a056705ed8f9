/** `Command`: what resumes a thread, and what a node may return to go somewhere. */
import type { Send } from "./send.js";

declare const commandBrand: unique symbol;

/** The `graph` of a Command that hands off to the parent graph: {@link Command.PARENT}'s value, as LangGraph.js spells it. */
const PARENT_GRAPH = "__parent__";

/**
 * LangGraph's `Command`, in two places. Resuming a thread: the answer(s) to its pending interrupts
 * (`resume`: one value while one interrupt is pending, else a map from interrupt id to value), an
 * update merged through the reducers first, and `goto`: the nodes to run next instead of the pending
 * ones. Returned by a node: its `update` merges like any node's update, and `goto` (a node name, a list
 * of them, or `Send`s) adds those nodes to the next superstep, on top of the node's own edge or route.
 * A node may `goto` only the nodes it declares in `addNode(name, fn, { ends: [...] })`: `Goto` is what
 * the compiler checks against them. `UpdateKeys` are the keys of the update as given, so that a key the
 * state lacks is refused also when the update is held in a variable (see {@link UnknownUpdateFields}).
 * `GotoGiven` is the `goto` as given, Sends with their payload types (`unknown` when none is given or
 * the type arguments are written), so that the builder checks each Send's payload, and each name, against
 * its target node's input. `UpdateGiven` is the update's own type (`unknown` likewise), whose required
 * keys are the fields the Command surely writes, for the builder's parallel-write check.
 * A node may also return a list of Commands: their updates merge in order, their gotos are all taken.
 * With `graph: Command.PARENT`, a node of a subgraph hands off to its parent graph (see {@link Command.PARENT}).
 *
 * @example
 * ```ts
 * await graph.invoke(new Command({ resume: { approved: true } }), { threadId: "order-42", checkpointer });
 * await graph.invoke(new Command({ resume: { [first.id]: "yes", [second.id]: "no" } }), { threadId: "t2", checkpointer });
 * builder.addNode("triage", (s) => new Command({ update: { seen: true }, goto: s.urgent ? "page" : "queue" }), { ends: ["page", "queue"] });
 * builder.addNode("split", () => [new Command({ update: { topic: "refund" }, goto: "billing" }), new Command({ goto: "support" })], { ends: ["billing", "support"] });
 * // inside a subgraph: hand off to the parent's "billing" node (the parent declares addNode("agent", child, { ends: ["billing"] }))
 * child.addNode("triage", () => new Command({ graph: Command.PARENT, goto: "billing", update: { topic: "refund" } }));
 * ```
 */
export class Command<
  Resume = unknown,
  S extends object = Record<string, unknown>,
  const Goto extends string = never,
  UpdateKeys extends PropertyKey = never,
  const GotoGiven = unknown,
  UpdateGiven = unknown,
  const Graph extends typeof PARENT_GRAPH | undefined = undefined,
> {
  /**
   * Type-level only (no such property at run time): tells a Command from a partial state, whose
   * fields are all optional, so that a node's Command is checked as a Command ({@link NotACommand}).
   * A `unique symbol`: Commands of two installed copies of this package are not assignable to each
   * other's types (one copy per program, as for any branded class).
   */
  declare readonly [commandBrand]: true;
  /**
   * Where a node's Command goes: `Command.PARENT` hands off to the graph that runs this one as a
   * subgraph node (LangGraph's `Command.PARENT`): the child's run ends, and the parent merges `update`
   * through its reducers and goes to `goto`, as if the subgraph node had returned the Command.
   */
  static readonly PARENT: typeof PARENT_GRAPH = PARENT_GRAPH;
  // The members read their types behind NoInfer: `Resume` and `Goto` come from the constructor's
  // options, never from where the Command goes. A node's contextual result type, a partial state,
  // has the state's fields; one named `resume` or `goto` inferred them from it (a false error).
  readonly resume: NoInfer<Resume> | undefined;
  // `Partial<S>`: `UpdateKeys` only checks the constructor's argument and is in no member, so a
  // Command's type is assignable whichever update it was given, and nothing infers through it.
  readonly update: Partial<S> | undefined;
  /** The destinations, as a list: names and `Send`s in the order given. */
  readonly goto: readonly (NoInfer<Goto> | Send<NoInfer<Goto>>)[] | undefined;
  /** `Command.PARENT` for a handoff to the parent graph; `undefined` for this graph. */
  readonly graph: NoInfer<Graph>;
  // `GotoGiven` and `UpdateGiven` are inferred from the options' second member, where each is the only type parameter: in
  // `goto`'s own type (`(Goto | Send<Goto> | …) & GotoGiven`) the intersection would distribute over the
  // union, and neither type parameter would be inferred. In no member, as `UpdateKeys`. (`UpdateKeys`
  // cannot tell a key the update surely has from an optional one: a `Partial<S>` variable gives every key.)
  constructor(
    options: {
      readonly resume?: Resume;
      // `S` comes from where the Command goes (a node's return type, `invoke`), `UpdateKeys` from the
      // argument's keys (the mapped type infers them, not the values, so a value is still read against
      // its field): a key `S` lacks is refused whether the update is a fresh literal or a variable,
      // which TypeScript's excess-property check alone does not see.
      readonly update?: NoInfer<Partial<S>> & { readonly [K in UpdateKeys]?: unknown } & NoInfer<UnknownUpdateFields<UpdateKeys, S>>;
      readonly goto?: Goto | Send<Goto> | readonly (Goto | Send<Goto>)[];
      readonly graph?: Graph;
    } & { readonly goto?: GotoGiven; readonly update?: UpdateGiven },
  ) {
    this.resume = options.resume;
    this.update = options.update;
    this.graph = options.graph as Graph;
    const { goto } = options;
    this.goto =
      goto === undefined ? undefined : Array.isArray(goto) ? [...(goto as readonly (Goto | Send<Goto>)[])] : [goto as Goto | Send<Goto>];
  }
}

/**
 * The keys of a Command's update that are not fields of the state, each demanding a property named by
 * the message, so that the compiler's error names the key and the fix; `{}` when every key is a field
 * (and for a Command with no state to read, whose `S` is `Record<string, unknown>`).
 */
export type UnknownUpdateFields<Keys extends PropertyKey, S> = {
  readonly [K in Exclude<Keys, keyof S>]: {
    readonly [M in `Command: update has "${K & string}", which is not a field of the state; write only the state's fields`]: never;
  };
};

/** A Command of any state and any destinations, as the engine handles one (its own graph's, or the parent's). */
export type AnyCommand = Command<unknown, Record<string, unknown>, string, never, unknown, unknown, typeof PARENT_GRAPH | undefined>;

/**
 * What a partial state has that a {@link Command} cannot: an update type that a Command is not
 * assignable to, so a node's Command with a `goto` outside its ends is not read as a partial state.
 */
export interface NotACommand {
  readonly [commandBrand]?: never;
}

/** What every {@link Command} has (type-level only): how a check tells a node's Command from its partial state. */
export interface CommandMark {
  readonly [commandBrand]: true;
}
