/**
 * `toMachine`: a compiled graph as a running XState v5 machine, in one of two layouts.
 *
 * - `"nodes"` (sequential graphs): one state per node (`_nodes-layout.ts`).
 * - `"supersteps"` (graphs that fan out, join or route to several nodes): one state run once per
 *   superstep (`_supersteps-layout.ts`).
 *
 * Both share one setup (`_setup.ts`): the actors drive the engine's `Run` a superstep at a time
 * (`_superstep.ts`). The config is plain data (named guards, actions and actors), so the Stately
 * inspector and visualizer can draw it.
 */
import type { CompiledGraph } from "../engine/index.js";
import { checkedStart, graphView, runOptionsOf, type EventSink, type ObservedSettings } from "../engine/_kernel.js";
import { describeValue } from "../_describe.js";
import { InvalidOptionError } from "../errors.js";
import { XStateExportError } from "./errors.js";
import { checkNodeNames, checkSequential, isParallelSpec } from "./_names.js";
import { nodesMachine } from "./_nodes-layout.js";
import { graphSetup, type ContextOf } from "./_setup.js";
import { superstepsMachine } from "./_supersteps-layout.js";

export { STEP_LIMIT_STATE, WAITING_TAG, SUPERSTEP_STATE } from "./machine-types.js";
export type {
  GraphMachineMode,
  GraphMachineLayout,
  ToMachineOptions,
  GraphMachineInput,
  LastStep,
  PendingTask,
  SuperstepProgress,
  GraphMachineContext,
  GraphMachineOutput,
  StepEvent,
} from "./machine-types.js";
import { STEP_LIMIT_STATE, type GraphMachineMode, type GraphMachineLayout, type ToMachineOptions } from "./machine-types.js";

/**
 * Builds a typed XState v5 machine that runs a compiled graph with the mini engine's results: the same
 * final state, trace and routes, the same errors (the actor's `error`), and a step limit that ends in
 * the final state {@link STEP_LIMIT_STATE} with `outcome: "step-limit"` rather than a crash. A sequential
 * graph gets one state per node; a graph that fans out, joins or routes to several nodes gets one
 * {@link SUPERSTEP_STATE} run once per superstep by the mini engine's own scheduler.
 *
 * @throws XStateExportError `UNSUPPORTED_NAME` for node names that start with `#` (XState reads them as ids)
 * in a `"nodes"` machine; `UNSUPPORTED_GRAPH` for `layout: "nodes"` on a graph that runs several nodes at once.
 * @example
 * ```ts
 * import { createActor, toPromise } from "xstate";
 * const machine = toMachine(buildReportGraph());
 * const output = await toPromise(createActor(machine, { input: { state: initialReportState(), maxSteps: 30 } }).start());
 * output.trace; // ["collect", "write_draft", "check_draft", "revise_draft", "check_draft", "publish"]
 * ```
 */
export function toMachine<S extends object>(graph: CompiledGraph<S>, options: ToMachineOptions = {}) {
  return buildMachine(graph, options, "toMachine");
}

/** @internal {@link toMachine}, with `api` naming the caller in error messages (`runOnXState` builds its machine here). */
export function buildMachine<S extends object>(
  graph: CompiledGraph<S>,
  options: ToMachineOptions,
  api: string,
  sink?: EventSink,
  maxConcurrency?: number,
  observed?: ObservedSettings,
) {
  const { mode, id, signal, layout } = checkedOptions(options, api);
  const { spec } = graph;
  // The nodes the graph was compiled to pause at: a machine cannot pause, so it refuses them rather than run through.
  const { interruptBefore, interruptAfter } = graphView(graph).settings;
  const interrupts = [...interruptBefore, ...interruptAfter];
  if (interrupts.length > 0) {
    throw new XStateExportError(
      "UNSUPPORTED_INTERRUPT",
      `${api}: the graph pauses at interrupts (${interrupts.join(", ")}), and an XState machine cannot pause there: it would run straight through them. ` +
        `Run it with graph.invoke(input, { threadId, checkpointer }), or compile it without interrupts to export it.`,
      interrupts,
    );
  }
  const supersteps = layout === "supersteps" || (layout === "auto" && isParallelSpec(spec));
  if (!supersteps) {
    checkSequential(spec, api, { allowListRoutes: false });
    checkNodeNames(spec, api, [STEP_LIMIT_STATE]);
  }
  const executable = graphView(graph).executable;
  const machineSetup = graphSetup<S>({ executable, api, signal, sink, maxConcurrency, observed });
  const context: ContextOf<S> = ({ input }) => ({
    ...runOptionsOf(input, api, executable).limits,
    state: checkedStart(executable, input.state, api) as S,
    trace: [],
    routes: [],
    last: null,
    stoppedBefore: null,
    ...(supersteps ? { run: { supersteps: 0, tasks: [], joins: executable.joins.map(() => []), steps: [] } } : {}),
  });
  return supersteps ? superstepsMachine(machineSetup, spec, id, mode, context) : nodesMachine(machineSetup, spec, id, mode, context);
}

/** The machine type {@link toMachine} returns for a state `S`. */
export type GraphMachine<S extends object> = ReturnType<typeof buildMachine<S>>;

function checkedOptions(
  options: ToMachineOptions,
  api: string,
): { mode: GraphMachineMode; id: string; signal: AbortSignal | undefined; layout: GraphMachineLayout } {
  if (typeof options !== "object" || options === null) {
    throw new InvalidOptionError(`${api}: options must be an object { mode, id, signal, layout }; got ${describeValue(options)}.`);
  }
  const { mode = "run", id = "graph", layout = "auto" } = options;
  if (layout !== "auto" && layout !== "nodes" && layout !== "supersteps") {
    throw new InvalidOptionError(`${api}: layout must be "auto", "nodes" or "supersteps"; got ${describeValue(layout)}.`);
  }
  if (mode !== "run" && mode !== "step") {
    throw new InvalidOptionError(`${api}: mode must be "run" or "step"; got ${describeValue(mode)}.`);
  }
  if (typeof id !== "string" || id === "" || id.includes(".") || id.includes("#")) {
    throw new InvalidOptionError(
      `${api}: id must be a non-empty string without "." or "#" (XState reads them in targets); got ${describeValue(id)}.`,
    );
  }
  return { mode, id, signal: runOptionsOf({ signal: options.signal }, api).signal, layout };
}
