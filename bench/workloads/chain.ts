/**
 * A chain of N trivial nodes (START → n0 → … → n(N-1) → END), each adding 1 to a counter: the engine's
 * cost per step with nothing else in the way. The cost per step must stay flat as N grows.
 */
import { BasicTracerProvider } from "@opentelemetry/sdk-trace-base";
import { compileGraph, END, START, type CompiledGraph, type GraphSpec, type NodePolicy } from "../../src/index.js";
import { otelObserver } from "../../src/otel/index.js";
import { verify, type Candidate, type Skipped, type VerifiedWorkload } from "../_workload.js";

/** The chain's state. */
export interface ChainState {
  readonly i: number;
}

type ChainNode = (state: ChainState) => Partial<ChainState>;

const increment: ChainNode = (state) => ({ i: state.i + 1 });

/** The contender names for a chain of `n` nodes. */
export const chainNames = (n: number) =>
  ({
    loop: `hand-written loop, N=${n}`,
    invoke: `mini engine invoke, N=${n}`,
    policies: `mini engine invoke, timeout + retry on every node, N=${n}`,
    tracingOff: `mini engine invoke, otelObserver() with no SDK registered (tracing off), N=${n}`,
    tracingOn: `mini engine invoke, otelObserver() on an SDK tracer (spans recorded, not exported), N=${n}`,
    langGraph: `LangGraph.js invoke, N=${n}`,
  }) as const;

/**
 * The chain of `n` nodes as a compiled graph (built from a spec: a 1000-call builder chain is a
 * type-check benchmark, not this one). `compile` is another build's `compileGraph` when a driver
 * compares two builds of the engine in one process (bench/profile-chain.ts).
 */
export function chainGraph(
  n: number,
  policies?: NodePolicy<never>,
  compile: typeof compileGraph = compileGraph,
): CompiledGraph<ChainState> {
  const names = Array.from({ length: n }, (_, k) => `n${k}`);
  const spec: GraphSpec = {
    nodes: names,
    edges: [START, ...names].map((from, k) => ({ from, to: names[k] ?? END })),
    routes: [],
    reducers: [],
    fields: ["i"],
  };
  const nodes = Object.fromEntries(names.map((name) => [name, increment]));
  return compile<ChainState>({
    spec,
    nodes,
    routers: {},
    reducers: {},
    ...(policies === undefined ? {} : { policies: Object.fromEntries(names.map((name) => [name, policies])) }),
  });
}

/** The same N nodes in a plain async loop, each awaited, each update spread over the state. */
export async function chainLoop(input: ChainState, nodes: readonly ChainNode[]): Promise<ChainState> {
  let state = input;
  for (const node of nodes) state = { ...state, ...(await node(state)) };
  return state;
}

/**
 * One workload with every size in it, so that all sizes are timed in the same rounds and their per-step
 * ratio is taken round by round. Each size's baseline is the loop of the same size.
 */
export async function chainWorkload(sizes: readonly number[]): Promise<VerifiedWorkload> {
  const input: ChainState = { i: 0 };
  const contenders = [];
  const skipped = [];
  for (const n of sizes) {
    const graph = chainGraph(n);
    const guarded = chainGraph(n, { timeout: 10_000, retry: { maxAttempts: 3 } });
    // Tracing off: the API's no-op tracer (no SDK registered). Tracing on: an SDK provider without processors.
    const off = { maxSteps: n, observer: otelObserver() };
    const on = { maxSteps: n, observer: otelObserver({ tracer: new BasicTracerProvider().getTracer("bench") }) };
    const nodes = Array.from({ length: n }, () => increment);
    const names = chainNames(n);
    const verified = await verify<ChainState>({ i: n }, [
      { name: names.loop, steps: n, baseline: names.loop, run: () => chainLoop(input, nodes) },
      { name: names.invoke, steps: n, baseline: names.loop, run: async () => (await graph.invoke(input, { maxSteps: n })).state },
      { name: names.policies, steps: n, baseline: names.loop, run: async () => (await guarded.invoke(input, { maxSteps: n })).state },
      { name: names.tracingOff, steps: n, baseline: names.invoke, run: async () => (await graph.invoke(input, off)).state },
      { name: names.tracingOn, steps: n, baseline: names.invoke, run: async () => (await graph.invoke(input, on)).state },
    ]);
    contenders.push(...verified.contenders);
    skipped.push(...verified.skipped);
  }
  const smallest = Math.min(...sizes);
  const title = `chain of N trivial nodes (N = ${sizes.join(", ")})`;
  return { title, baseline: chainNames(smallest).loop, baselineLabel: "loop of the same N", contenders, skipped };
}

/**
 * The chain of `n` nodes on the mini engine and on LangGraph.js (its own `invoke` on the graph
 * `toLangGraph` exports): with trivial nodes, the ratio is the two engines' overhead alone.
 */
export async function chainOnLangGraphWorkload(n: number): Promise<VerifiedWorkload> {
  const graph = chainGraph(n);
  const nodes = Array.from({ length: n }, () => increment);
  const input: ChainState = { i: 0 };
  const names = chainNames(n);
  const candidates: (Candidate<ChainState> | Skipped)[] = [
    { name: names.loop, steps: n, run: () => chainLoop(input, nodes) },
    { name: names.invoke, steps: n, run: async () => (await graph.invoke(input, { maxSteps: n })).state },
  ];
  try {
    const { toLangGraph } = await import("../../src/langgraph/index.js");
    const lg = await toLangGraph(graph);
    candidates.push({
      name: names.langGraph,
      steps: n,
      run: async () => (await lg.invoke(input, { recursionLimit: n + 1 })) as ChainState,
    });
  } catch (error) {
    candidates.push({ name: names.langGraph, reason: `toLangGraph failed: ${error instanceof Error ? error.message : String(error)}` });
  }
  return {
    title: `chain of N=${n} trivial nodes on the mini engine and LangGraph.js`,
    baseline: names.loop,
    ...(await verify({ i: n }, candidates)),
  };
}
