/**
 * What the inspector inspects: a graph's spec (to draw), and when it can run, how a live run starts
 * and how a thread continues. The CLI builds one for an example or a user's module; the server reads
 * only this, so the same server shows any graph.
 */
import type { CompiledGraph, GraphSpec } from "../index.js";
import type { Checkpoint, JsonValue } from "../persistence/index.js";

/** A graph the inspector can run: any compiled graph. */
export type RunnableGraph = CompiledGraph<object>;

/** What the page asks for when it starts a live run. */
export interface RunRequest {
  /** The input state; the target's default when absent. */
  readonly input?: unknown;
  /** Nodes to pause before (for targets that build their graph per run, such as the report example). */
  readonly interruptBefore?: readonly string[];
}

/** A live run, ready to start. */
export interface RunPlan {
  readonly graph: RunnableGraph;
  readonly input: object;
  /** Stored with each checkpoint (`metadata.user`), so a later resume rebuilds the same graph. */
  readonly metadata?: Readonly<Record<string, JsonValue>>;
  readonly maxSteps?: number;
}

/** How a thread continues: the same rules as `tsg resume` for a report thread. */
export interface ThreadRules {
  /** The graph that continues `checkpoint`'s thread; throws an `InspectError` when it cannot. */
  graphFor(checkpoint: Checkpoint<object>): RunnableGraph;
  /** The interrupt nodes `checkpoint` waits at: non-empty means a person must approve or edit. */
  pausedAt(checkpoint: Checkpoint<object>): readonly string[];
  /** The `updateState` an edit from the page makes (its body's `edit`); throws an `InspectError` on a bad edit. */
  editOf(checkpoint: Checkpoint<object>, edit: unknown): { readonly update: object; readonly asNode?: string };
  /** The step bound of a resumed run. */
  maxStepsFor?(checkpoint: Checkpoint<object>): number | undefined;
}

/** The graph the inspector shows, or why there is none. */
export type InspectTarget =
  | {
      readonly label: string;
      readonly spec: GraphSpec;
      readonly problem?: undefined;
      /** Present when the page may start live runs. */
      readonly run?: (request: RunRequest) => RunPlan;
      /** Present when threads of this graph can be resumed, forked or edited. */
      readonly threads?: ThreadRules;
      /** The nodes the page offers to pause before. */
      readonly interruptChoices?: readonly string[];
      /** The input the page prefills for a live run. */
      readonly defaultInput?: object;
      /**
       * The JSON Schema of a live run's input (an object schema): the page builds its input form from
       * its properties (a checkbox, a list, a number or text field each; JSON for the rest).
       */
      readonly inputSchema?: Readonly<Record<string, unknown>>;
    }
  | { readonly label: string; readonly spec?: undefined; readonly problem: string };
