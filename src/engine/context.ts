/**
 * The second argument of a node and of a router: what the run lets a function know and do beyond
 * reading the state. Types only; the drivers build the values (lazily, so a node that declares one
 * parameter pays for nothing).
 */

/**
 * What a node receives next to its state: the run's signal, a writer for custom stream events, and
 * where in the run it executes.
 *
 * @example
 * ```ts
 * builder.addNode("fetch", async (s, { signal, writer }) => {
 *   writer({ progress: "fetching" });
 *   const res = await fetch(s.url, { signal });
 *   return { body: await res.text() };
 * });
 * ```
 */
export interface NodeContext {
  /**
   * Aborts when the run's `signal` aborts, when a sibling in the same superstep fails, or when the
   * node's timeout fires. Pass it to `fetch` and model calls so they stop with the run.
   */
  readonly signal: AbortSignal;
  /** The node being run. */
  readonly node: string;
  /** The superstep it runs in: 1 for the first. */
  readonly superstep: number;
  /** Which attempt this is: 1 unless a retry policy runs the node again. */
  readonly attempt: number;
  /** The thread of a threaded run (`invoke(input, { threadId })`); `undefined` otherwise. */
  readonly threadId: string | undefined;
  /**
   * Emits a custom stream event: `stream(input, { streamMode: "custom" })` yields `{ node, event }`
   * in the order written. `invoke` ignores it.
   */
  writer(event: unknown): void;
}

/**
 * What a router receives next to its state.
 *
 * @example
 * ```ts
 * builder.addConditionalEdges("check", (s, { superstep }) => (superstep > 10 || s.ok ? "done" : "again"), { done: END, again: "work" });
 * ```
 */
export interface RouterContext {
  /** Aborts when the run's `signal` aborts. */
  readonly signal: AbortSignal;
  /** The source whose rule is being decided (a node name, or `__start__`). */
  readonly node: string;
  /** The superstep that just committed: 0 for START's router. */
  readonly superstep: number;
  /** The thread of a threaded run; `undefined` otherwise. */
  readonly threadId: string | undefined;
}
