/**
 * In-node interrupts on LangGraph.js. A node of the exported graph that calls `interrupt(payload)` (or
 * a `defineInterrupt` call) asks LangGraph's own `interrupt()`: the graph pauses, saves and resumes as
 * any LangGraph graph does, and the node runs again from its start with the call returning the resume
 * value. The rules the mini engine adds stay: the payload must be JSON, a `defineInterrupt` schema
 * checks the answer, and a node that catches the pause still pauses. A graph compiled without a
 * checkpointer gets no frame: `interrupt()` then fails with the mini engine's `INTERRUPT_OUTSIDE_THREAD`.
 */
import type { JsonValue } from "../engine/index.js";
import { NodePaused, type InterruptFrame } from "../engine/_kernel.js";
import type { LangGraphModule } from "./_load.js";

/** The frame a wrapped node runs in on LangGraph.js: its `interrupt` calls go to LangGraph's `interrupt()`. */
export class LangGraphInterruptFrame implements InterruptFrame {
  readonly #lg: LangGraphModule;
  #interruption: unknown;
  paused = false;
  /** The `defineInterrupt` name of the call that paused, which LangGraph does not keep. */
  pausedName: string | undefined;

  constructor(lg: LangGraphModule) {
    this.#lg = lg;
  }

  call(value: JsonValue, name: string | undefined): { readonly resumed: true; readonly value: unknown } | { readonly resumed: false } {
    // A node that caught the pause and asked again is paused already, as on the mini engine.
    if (this.paused) throw new NodePaused("interrupt: this node already paused");
    try {
      return { resumed: true, value: this.#lg.interrupt(value) };
    } catch (error) {
      if (this.#lg.isGraphInterrupt(error)) {
        this.paused = true;
        this.pausedName = name;
        this.#interruption = error;
        return { resumed: false };
      }
      throw error;
    }
  }

  /**
   * What the node ends with: LangGraph's `GraphInterrupt` once the node paused (whatever it returned or
   * threw after), so LangGraph saves the interrupt; otherwise `undefined`.
   */
  get interruption(): unknown {
    return this.#interruption;
  }
}
