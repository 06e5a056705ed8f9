/**
 * Running a compiled graph on XState with the mini engine's interface: the same result shape
 * (`{ state, trace, steps, routes }`), the same steps, the same errors. This is what a CLI or a test
 * calls to compare the two engines, or to switch between them with one flag.
 */
import { createActor } from "xstate";
import { cloneState } from "../engine/index.js";
import type { CompiledGraph } from "../engine/index.js";
import { graphView, limitMessage, ObservedRun, runOptionsOf } from "../engine/_kernel.js";
import type { CustomEvent, RunOptions, RunResult, Step } from "../engine/index.js";
import { GraphLimitError, InvalidOptionError } from "../errors.js";
import {
  buildMachine,
  WAITING_TAG,
  type GraphMachineContext,
  type GraphMachineLayout,
  type GraphMachineMode,
  type GraphMachineOutput,
} from "./machine.js";

/** Options of {@link runOnXState} and {@link streamOnXState}: the mini engine's, plus the machine's mode and layout. */
export interface XStateRunOptions extends RunOptions {
  /** Receives each event a node writes with `context.writer`, in order (the mini engine's `custom` stream mode). */
  readonly onCustomEvent?: (event: CustomEvent) => void;
  /** `"run"` (default) runs the machine to completion; `"step"` sends one `step` event per node (per superstep). */
  readonly mode?: GraphMachineMode;
  /** Default `"auto"`: one state per node for sequential graphs, one superstep state otherwise (see `toMachine`). */
  readonly layout?: GraphMachineLayout;
}

/**
 * Runs a compiled graph on an XState actor and resolves with what `graph.invoke` resolves with: the
 * final state, the trace, every step and every route. It rejects with the errors `invoke` rejects with,
 * word for word (`GraphExecutionError` and its codes, `GraphLimitError` naming the node not started,
 * `InvalidOptionError`).
 *
 * @example
 * ```ts
 * const graph = buildReportGraph({ draftStyle: "stubborn", maxRevisions: 2 });
 * const onXState = await runOnXState(graph, initialReportState(), { maxSteps: 30 });
 * const onMini = await graph.invoke(initialReportState(), { maxSteps: 30 });
 * // onXState.state, .trace and .routes equal onMini's
 * ```
 */
export async function runOnXState<S extends object>(
  graph: CompiledGraph<S>,
  input: S,
  options: XStateRunOptions = {},
): Promise<RunResult<S>> {
  const run = drive(graph, input, options, "invoke");
  const steps: Step<S>[] = [];
  for (;;) {
    const next = await run.next();
    if (next.done === true) {
      const { output, supersteps } = next.value;
      const { state, trace, routes } = output;
      return { state: cloneState(state), trace, steps, routes, supersteps };
    }
    steps.push(next.value);
  }
}

/**
 * Runs a compiled graph on an XState actor and yields each step as it completes, as `graph.stream`
 * does; a CLI can take either engine's steps through one loop.
 *
 * @example
 * ```ts
 * const steps = engine === "xstate" ? streamOnXState(graph, input, { maxSteps: 30 }) : graph.stream(input, { maxSteps: 30 });
 * for await (const step of steps) console.log(step.node, Object.keys(step.update));
 * ```
 */
export async function* streamOnXState<S extends object>(
  graph: CompiledGraph<S>,
  input: S,
  options: XStateRunOptions = {},
): AsyncGenerator<Step<S>, void> {
  yield* drive(graph, input, options, "stream");
}

/** How a driven run ended: the machine's output, and how many supersteps ran (one per node in a "nodes" machine). */
interface Finished<S> {
  readonly output: GraphMachineOutput<S>;
  readonly supersteps: number;
}

/** What the actor reports, queued until the generator reads it. */
type Report<S> =
  | { readonly kind: "snapshot"; readonly context: GraphMachineContext<S>; readonly waiting: boolean }
  | { readonly kind: "done"; readonly context: GraphMachineContext<S>; readonly output: GraphMachineOutput<S> }
  | { readonly kind: "error"; readonly error: unknown };

/**
 * Errors name `invoke` (runOnXState) or `stream` (streamOnXState), as the mini engine's do: the two
 * engines fail with the same words, so a command line prints the same output whichever engine ran.
 */
async function* drive<S extends object>(
  graph: CompiledGraph<S>,
  input: S,
  options: XStateRunOptions,
  api: "invoke" | "stream",
): AsyncGenerator<Step<S>, Finished<S>> {
  const { limits, signal, maxConcurrency } = runOptionsOf(options, api, graphView(graph).executable);
  const { onCustomEvent } = options;
  const sink = onCustomEvent === undefined ? undefined : (node: string, event: unknown): void => onCustomEvent({ node, event });
  const mode = options.mode ?? "run";
  const observed = observedRun(graph, options, api);
  // An observed run needs the kernel's own superstep driver: the superstep layout.
  const layout = observed !== undefined ? "supersteps" : options.layout;
  const machine = buildMachine(
    graph,
    { mode, ...(signal ? { signal } : {}), ...(layout === undefined ? {} : { layout }) },
    api,
    sink,
    maxConcurrency,
    observed === undefined ? undefined : { ...observed.settings, engine: "xstate" },
  );
  const actor = createActor(machine, { input: { state: input, ...limits } });

  const reports: Report<S>[] = [];
  let wake: (() => void) | undefined;
  const report = (item: Report<S>): void => {
    reports.push(item);
    wake?.();
    wake = undefined;
  };
  const subscription = actor.subscribe({
    next: (snapshot) => {
      if (snapshot.status === "done") report({ kind: "done", context: snapshot.context, output: snapshot.output });
      else if (snapshot.status === "active") report({ kind: "snapshot", context: snapshot.context, waiting: snapshot.hasTag(WAITING_TAG) });
    },
    error: (error) => report({ kind: "error", error }),
  });

  let seen = 0;
  let supersteps = 0;
  try {
    actor.start();
    for (;;) {
      const item = reports.shift() ?? (await new Promise<void>((resolve) => (wake = resolve)), reports.shift());
      if (item === undefined) continue;
      if (item.kind === "error") {
        observed?.failed(item.error, supersteps);
        throw item.error;
      }
      supersteps = item.context.run?.supersteps ?? supersteps;
      // One node (or one superstep) completes per snapshot: its actor's result is one event, one macrostep.
      if (item.context.trace.length > seen) {
        seen = item.context.trace.length;
        yield* stepsOf(item.context);
      }
      if (item.kind === "done") {
        const done = { output: finished(item.output, api), supersteps: item.context.run?.supersteps ?? item.context.trace.length };
        observed?.end({ status: "done", supersteps: done.supersteps });
        return done;
      }
      // Step mode: the next node runs only when the consumer asks for the next step.
      if (item.waiting) actor.send({ type: "step" });
    }
  } catch (error) {
    observed?.failed(error, supersteps);
    throw error;
  } finally {
    observed?.end({ status: "abandoned", supersteps });
    subscription.unsubscribe();
    actor.stop();
  }
}

/** The run's observation when the caller passed an observer: opened once here, reported to by each superstep's `Run`. */
function observedRun<S extends object>(graph: CompiledGraph<S>, options: XStateRunOptions, api: string): ObservedRun | undefined {
  if (options.observer === undefined) return undefined;
  if (options.layout === "nodes") {
    throw new InvalidOptionError(
      `${api}: an observer needs the superstep layout (the run kernel's own driver); drop layout: "nodes" or the observer.`,
    );
  }
  return ObservedRun.open(graphView(graph).executable, { observer: options.observer, engine: "xstate" }, api, undefined, false);
}

/**
 * The detached steps of the node (or superstep) that just completed, as the mini engine hands them out.
 * Called for a snapshot whose trace grew, which carries them: the nodes layout sets `last` in the same
 * assign that appends its node to the trace, the superstep layout sets `run.steps`, one per node it
 * appends (test/xstate/run.test.ts checks one step per trace entry on both layouts).
 */
function stepsOf<S>(context: GraphMachineContext<S>): Step<S>[] {
  const last = context.run === undefined ? (context.last === null ? [] : [context.last]) : context.run.steps;
  return last.map((step) => ({
    node: step.node,
    update: cloneState(step.update),
    state: cloneState(context.state),
    ...(step.route === undefined ? {} : { route: typeof step.route === "string" ? step.route : [...step.route] }),
  }));
}

/** The run's output, or the mini engine's GraphLimitError when the step limit stopped it. */
function finished<S>(output: GraphMachineOutput<S>, api: string): GraphMachineOutput<S> {
  if (output.outcome === "end") return output;
  const node = output.stoppedBefore;
  const context = { node, state: cloneState(output.state as Record<string, unknown>), trace: [...output.trace] };
  const bound = output.limit;
  throw new GraphLimitError(
    `${api}: ${limitMessage(bound, bound === "maxSteps" ? output.maxSteps : output.recursionLimit, node)}`,
    context,
  );
}
