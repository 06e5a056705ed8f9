/**
 * The engines the equivalence property compares, each normalized to an {@link Outcome}: the reference
 * interpreter, `invoke`, the thread runner and the XState machines (the LangGraph runner and the DBOS
 * workflow, slower, in driver-equivalence.test.ts).
 * Adding an engine is one entry in {@link engines}.
 */
import { compileGraph, GraphExecutionError, type GraphDefinition, type RunResult } from "../../src/index.js";
import { MemoryCheckpointer } from "../../src/persistence/index.js";
import { runOnXState, XStateExportError } from "../../src/xstate/index.js";
import { referenceRun, type Outcome } from "./reference-interpreter.js";

/**
 * An engine declined a graph it documents it cannot run (for XState with one state per node: a node
 * named "#a", or a router that starts several nodes in a graph that declares no parallel rule).
 */
export const UNSUPPORTED = "unsupported";

export interface Engine {
  readonly name: string;
  run(definition: GraphDefinition, input: Record<string, unknown>, maxSteps: number): Promise<Outcome | typeof UNSUPPORTED>;
}

/** A finished run of the mini engine's result shape, or its error, as an {@link Outcome}. */
export async function outcomeOf(run: () => Promise<RunResult<Record<string, unknown>>>): Promise<Outcome> {
  try {
    const { state, trace, routes, steps, supersteps } = await run();
    return {
      kind: "done",
      state,
      trace,
      supersteps,
      routes: routes.map(({ from, key, to }) => ({ from, key, to })),
      steps: steps.map(({ node, update, state: after, route }) => ({
        node,
        update: update as Record<string, unknown>,
        state: after,
        ...(route === undefined ? {} : { route }),
      })),
    };
  } catch (error) {
    if (!(error instanceof GraphExecutionError)) throw error;
    return { kind: "error", code: error.code, node: error.node, state: error.state, trace: [...error.trace] };
  }
}

export const engines: readonly Engine[] = [
  { name: "reference interpreter", run: (definition, input, maxSteps) => referenceRun(definition, input, maxSteps) },
  { name: "mini engine", run: (definition, input, maxSteps) => outcomeOf(() => compileGraph(definition).invoke(input, { maxSteps })) },
  {
    // The thread runner: a checkpoint saved after every superstep, the same run.
    name: "thread runner",
    run: (definition, input, maxSteps) =>
      outcomeOf(() =>
        compileGraph(definition).invoke(input, { maxSteps, threadId: "equivalence", checkpointer: new MemoryCheckpointer() }),
      ),
  },
  {
    // The default layout: one state per node for sequential specs, the superstep machine otherwise.
    name: "XState actor",
    run: async (definition, input, maxSteps) => {
      try {
        return await outcomeOf(() => runOnXState(compileGraph(definition), input, { maxSteps }));
      } catch (error) {
        // Only a refusal the export documents; any other failure is a difference between the engines.
        if (error instanceof XStateExportError) return UNSUPPORTED;
        throw error;
      }
    },
  },
  {
    // The superstep machine runs every graph, sequential ones included: it never refuses.
    name: "XState superstep machine",
    run: (definition, input, maxSteps) => outcomeOf(() => runOnXState(compileGraph(definition), input, { maxSteps, layout: "supersteps" })),
  },
];
