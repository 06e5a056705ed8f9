/**
 * A fan-out of 8 parallel nodes and a join: START → split → w0…w7 (one superstep) → join → END.
 * 10 node executions in 3 supersteps; the 8 updates merge through the `append` reducer.
 */
import { append, compileGraph, END, START, type CompiledGraph, type GraphSpec } from "../../src/index.js";
import { verify, type Candidate, type Skipped, type VerifiedWorkload } from "../_workload.js";

/** The fan-out's state: each worker appends its index, the join sums them. */
export interface FanOutState {
  readonly results: readonly number[];
  readonly total: number;
}

const WIDTH = 8;
const STEPS = WIDTH + 2;
const workers = Array.from({ length: WIDTH }, (_, k) => `w${k}`);

/** Contender names. */
export const FAN_OUT = {
  loop: "hand-written loop (Promise.all)",
  invoke: "mini engine invoke",
  langGraphInvoke: "LangGraph.js invoke",
} as const;

const split = (): Partial<FanOutState> => ({});
const worker = (k: number) => (): Partial<FanOutState> => ({ results: [k] });
const join = (state: FanOutState): Partial<FanOutState> => ({ total: state.results.reduce((a, b) => a + b, 0) });

/** The fan-out graph, built from a spec. */
export function fanOutGraph(): CompiledGraph<FanOutState> {
  const spec: GraphSpec = {
    nodes: ["split", ...workers, "join"],
    edges: [
      { from: START, to: "split" },
      { from: "join", to: END },
    ],
    fanOuts: [{ from: "split", to: workers }],
    joins: [{ from: workers, to: "join" }],
    routes: [],
    reducers: [{ field: "results", reducer: "append" }],
    fields: ["results", "total"],
  };
  const nodes = Object.fromEntries([["split", split], ...workers.map((name, k) => [name, worker(k)]), ["join", join]]);
  return compileGraph<FanOutState>({ spec, nodes, routers: {}, reducers: { results: append } });
}

/** The same work by hand: the workers run together on one state, their updates merge in order. */
export async function fanOutLoop(input: FanOutState): Promise<FanOutState> {
  let state: FanOutState = { ...input, ...(await split()) };
  const updates = await Promise.all(workers.map(async (_, k) => worker(k)()));
  for (const update of updates) state = { ...state, ...update, results: append(state.results, update.results ?? []) };
  return { ...state, ...(await join(state)) };
}

/** Verifies the mini engine (and LangGraph.js, once it exports fan-outs) against the loop. */
export async function fanOutWorkload(): Promise<VerifiedWorkload> {
  const graph = fanOutGraph();
  const input: FanOutState = { results: [], total: 0 };
  const expected: FanOutState = { results: [0, 1, 2, 3, 4, 5, 6, 7], total: 28 };
  const candidates: (Candidate<FanOutState> | Skipped)[] = [
    { name: FAN_OUT.loop, steps: STEPS, run: () => fanOutLoop(input) },
    { name: FAN_OUT.invoke, steps: STEPS, run: async () => (await graph.invoke(input)).state },
  ];
  try {
    const { toLangGraph } = await import("../../src/langgraph/index.js");
    const lg = await toLangGraph(graph);
    candidates.push({ name: FAN_OUT.langGraphInvoke, steps: STEPS, run: async () => (await lg.invoke(input)) as FanOutState });
  } catch (error) {
    candidates.push({ name: FAN_OUT.langGraphInvoke, reason: error instanceof Error ? error.message : String(error) });
  }
  return {
    title: "fan-out of 8 parallel nodes plus a join (10 node executions, 3 supersteps)",
    baseline: FAN_OUT.loop,
    ...(await verify(expected, candidates)),
  };
}
