/**
 * The values a checkpoint stores that the compiled tables name too (a migration's payloads and
 * answers): a leaf of the engine's imports, so `executable.ts` reaches them without the store contract.
 */

/** A JSON value: what a checkpoint stores. */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/**
 * One `interrupt(payload)` call that paused the run, waiting for its resume value.
 *
 * @example
 * ```ts
 * const [pending] = (await graph.getState("t1"))?.interrupts ?? [];
 * pending; // { id: "review:1:0:0", node: "review", name: "approval", value: { draft: "…" } }
 * ```
 */
export interface PendingInterrupt {
  /** Stable across re-runs: `node:superstep:task:index` (the task's position in its superstep, the call's index within the node). */
  readonly id: string;
  /** The node that called `interrupt`. */
  readonly node: string;
  /** The `defineInterrupt` name, when the call came from one. */
  readonly name?: string;
  /** The payload the node passed: what the person reads. */
  readonly value: JsonValue;
  /**
   * For an interrupt raised inside a subgraph: the checkpoint namespace of each subgraph it is nested
   * in, outermost first (LangGraph's `ns`). Its `id` then begins with the subgraph task's
   * (`outer:2:0/inner:1:0:0`). The subgraph's own checkpoints live there, so a resume continues it.
   */
  readonly ns?: readonly string[];
}
