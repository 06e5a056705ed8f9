/**
 * In-node interrupts on LangGraph.js. A node of the exported graph that calls `interrupt(payload)` (or
 * a `defineInterrupt` call) asks LangGraph's own `interrupt()`: the graph pauses, saves and resumes as
 * any LangGraph graph does, and the node runs again from its start with the call returning the resume
 * value. The rules the mini engine adds stay: the payload must be JSON, a `defineInterrupt` schema
 * checks the answer, and a node that catches the pause still pauses. A graph compiled without a
 * checkpointer gets no frame: `interrupt()` then fails with the mini engine's `INTERRUPT_OUTSIDE_THREAD`.
 */
import type { JsonValue } from "../engine/index.js";
import { graphView, NodePaused, type InterruptFrame, type State, type SubgraphLimits } from "../engine/_kernel.js";
import type { CompiledGraph } from "../engine/index.js";
import { configurable, runChild, type ParentTask } from "./_child.js";

/** Where LangGraph keeps a task's interrupt counter (`CONFIG_KEY_SCRATCHPAD`, not exported by its entry). */
const SCRATCHPAD = "__pregel_scratchpad";

/** The frame a wrapped node runs in on LangGraph.js: its `interrupt` calls go to LangGraph's `interrupt()`. */
export class LangGraphInterruptFrame implements InterruptFrame {
  readonly #task: ParentTask;
  #interruption: unknown;
  paused = false;
  /** The `defineInterrupt` name of the call that paused, which LangGraph does not keep. */
  pausedName: string | undefined;

  constructor(task: ParentTask) {
    this.#task = task;
  }

  /**
   * Runs a subgraph node's child as a LangGraph subgraph of this task (see `_child.ts`), or `undefined`
   * when the child cannot be exported, or was compiled with static interrupts (which pause only a
   * top-level graph: it runs as on a plain run). A pause inside the child pauses this task.
   */
  runChild(
    child: object,
    input: unknown,
    limits: SubgraphLimits,
    refusal: Error | undefined,
  ): Promise<{ state: State; update: State }> | undefined {
    if (refusal !== undefined) return undefined;
    const compiled = child as CompiledGraph<object>;
    const exported = this.#task.children(graphView(compiled).executable, compiled.spec);
    if (exported === undefined) return undefined;
    return runChild(exported, input, limits, this.#task).catch((error: unknown) => {
      if (!this.#task.lg.isGraphInterrupt(error)) throw error;
      this.paused = true;
      this.#interruption = error;
      throw new NodePaused("subgraph: the child paused, waiting for a resume value");
    });
  }

  call(value: JsonValue, name: string | undefined): { readonly resumed: true; readonly value: unknown } | { readonly resumed: false } {
    // A node that caught the pause and asked again is paused already, as on the mini engine.
    if (this.paused) throw new NodePaused("interrupt: this node already paused");
    try {
      return { resumed: true, value: this.#task.lg.interrupt(value) };
    } catch (error) {
      if (this.#task.lg.isGraphInterrupt(error)) {
        this.paused = true;
        this.pausedName = name;
        this.#interruption = error;
        return { resumed: false };
      }
      throw error;
    }
  }

  /**
   * The mini engine's retry policy starts the node's next attempt inside LangGraph's one task: its
   * calls count from the first again, as LangGraph's own retry resets its scratchpad's counter.
   */
  retry(): void {
    const scratchpad = configurable(this.#task.config)[SCRATCHPAD];
    if (typeof scratchpad === "object" && scratchpad !== null && "interruptCounter" in scratchpad) {
      (scratchpad as { interruptCounter: number }).interruptCounter = -1;
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
