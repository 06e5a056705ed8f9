/**
 * `toLangGraph`: the same graph as a real LangGraph.js `StateGraph`. The spec maps one to one:
 * fields → `Annotation.Root` channels (a reducer → a reducer channel, otherwise a last-value channel),
 * nodes → nodes, fixed edges → `addEdge`, a fan-out → one `addEdge` per destination (LangGraph runs
 * them in one superstep), a join → a waiting edge `addEdge([a, b], c)`, routes →
 * `addConditionalEdges` with the path map, and our `Send`s → LangGraph `Send`s.
 */
import type { BaseChannel, BaseCheckpointSaver } from "@langchain/langgraph";
import { quoteList } from "../_describe.js";
import type { CompiledGraph } from "../engine/index.js";
import { graphView, subgraphEntry } from "../engine/_kernel.js";
import type { ExecutableGraph, State, GraphView } from "../engine/_kernel.js";
import { END, type GraphSpec } from "../spec.js";
import type { ChildExport, ChildGraph, LangGraphGraph } from "./_types.js";
import { CHILD_UPDATE } from "./_hidden.js";
import { loadLangGraph, type LangGraphModule } from "./_load.js";
import { orderedAggregate } from "./_order.js";
import { wrapNode, wrapReducer, wrapRouter, type ExportedAs, type LangGraphNode, type LangGraphPath } from "./_wrap.js";
import { LangGraphInteropError } from "./errors.js";

/** Options of {@link toLangGraph}. */
export interface ToLangGraphOptions {
  /**
   * LangGraph's checkpointer (`MemorySaver`, `PostgresSaver`…), passed to its `compile()`. Required to
   * pause: by a graph compiled with `interruptBefore`/`interruptAfter`, and by a node that calls
   * `interrupt()` (without one, that call fails with `INTERRUPT_OUTSIDE_THREAD`).
   */
  readonly checkpointer?: BaseCheckpointSaver;
}

/**
 * Builds and compiles the graph on LangGraph.js. Async because `@langchain/langgraph` (an optional
 * peer dependency) is loaded with `import()` on first use: importing this package never loads it.
 *
 * The nodes, routers and reducers are this graph's own, run by the engine's step code: a node reads an
 * isolated copy of the state, its update is validated against `fields` (an unknown key is an
 * `INVALID_UPDATE` error instead of being dropped), and a route key outside the path map fails with the
 * mini engine's message. A reducer channel folds one superstep's parallel writes in declaration order,
 * as the mini engine merges them (LangGraph alone would fold them by node name).
 *
 * Interrupts map to LangGraph's: a node's `interrupt(payload)` calls LangGraph's `interrupt()` (the
 * node runs again from its start on resume; a `defineInterrupt` schema still checks the answer), and
 * `interruptBefore`/`interruptAfter` become the same `compile()` options, with `options.checkpointer`.
 * A node that returns `new Command({ update, goto })` is added with LangGraph's `ends` and returns
 * LangGraph's `Command`, so LangGraph draws and routes its goto (its edge or route still applies, as here).
 *
 * @throws LangGraphInteropError `LANGGRAPH_FIELDS_REQUIRED` when the graph was built without the
 * `fields` option; `LANGGRAPH_FIELD_NAME` for a field named after an `Object.prototype` member
 * (`toString`, `constructor`…); `LANGGRAPH_NODE_NAME` for a node named like a field or containing `|` or `:`;
 * `LANGGRAPH_CHECKPOINTER_REQUIRED` for a graph compiled with `interruptBefore`/`interruptAfter` exported
 * without `options.checkpointer` (LangGraph.js would run straight through them); `LANGGRAPH_LOOP_BOUND`
 * for a graph with loop bounds (LangGraph.js counts no visits: run it with runOnLangGraph);
 * `LANGGRAPH_NOT_INSTALLED` when `@langchain/langgraph` is missing. It never falls back to the mini engine.
 * @example
 * ```ts
 * const lg = await toLangGraph(buildReportGraph());
 * const state = await lg.invoke(initialReportState(), { recursionLimit: 30 });
 * const gated = await toLangGraph(approvalGraph, { checkpointer: new MemorySaver() }); // interrupts need one
 * ```
 */
export async function toLangGraph<S extends object>(graph: CompiledGraph<S>, options: ToLangGraphOptions = {}): Promise<LangGraphGraph<S>> {
  checkLoopBounds(graph.spec, "toLangGraph");
  return exportGraph(graph, options);
}

/**
 * {@link toLangGraph} for `runOnLangGraph`, whose kernel admits each superstep and so enforces a loop
 * bound without an exit (`LOOP_BOUND`); a bound with an exit is still refused.
 * @internal
 */
export async function toLangGraphForRun<S extends object>(
  graph: CompiledGraph<S>,
  options: ToLangGraphOptions = {},
): Promise<LangGraphGraph<S>> {
  checkLoopBounds(graph.spec, "runOnLangGraph");
  return exportGraph(graph, options);
}

/**
 * LangGraph.js schedules the next nodes itself and counts no visits: it can neither send a run to a
 * bound's exit nor, run on its own, stop at a bound. Refused with the fix rather than run unbounded.
 */
function checkLoopBounds(spec: GraphSpec, api: "toLangGraph" | "runOnLangGraph"): void {
  const bounds = spec.bounds ?? [];
  const refused = api === "toLangGraph" ? bounds : bounds.filter((bound) => bound.exit !== undefined);
  if (refused.length === 0) return;
  const named = quoteList(refused.map((bound) => bound.node));
  throw new LangGraphInteropError(
    "LANGGRAPH_LOOP_BOUND",
    api === "toLangGraph"
      ? `toLangGraph: the graph bounds the loops through ${named}, and LangGraph.js counts no visits, so an exported graph would loop unbounded. ` +
          `Run it with runOnLangGraph (which enforces a bound without an exit), or on the mini engine, XState or DBOS.`
      : `runOnLangGraph: the loop bounds of ${named} have an exit, and LangGraph.js schedules the next nodes itself, so it cannot send a run there. ` +
          `Run the graph on the mini engine, XState or DBOS, or drop the exit (the run then fails with LOOP_BOUND at the bound).`,
  );
}

async function exportGraph<S extends object>(graph: CompiledGraph<S>, options: ToLangGraphOptions): Promise<LangGraphGraph<S>> {
  const executable = graphView(graph).executable;
  checkErrorHandlers(executable);
  const fields = exportableFields(graph.spec);
  const threads = graphView(graph).settings;
  checkCheckpointer(threads, options);
  const lg = await loadLangGraph();
  const exported = { children: childExport(lg), child: false };
  return buildLangGraph(lg, graph.spec, fields, executable, threads, options, exported) as unknown as LangGraphGraph<S>;
}

/**
 * An exported node runs the engine's `runTask`, which would run its error handler inside the node: LangGraph
 * would then follow the node's own edges after a handled failure, where the kernel follows only the
 * handler's goto. Refused, naming the nodes, until the handlers map to LangGraph's own `errorHandler`.
 */
function checkErrorHandlers(executable: ExecutableGraph): void {
  const handled = [...executable.policies].filter(([, policy]) => policy.errorHandler !== undefined).map(([node]) => node);
  if (handled.length === 0) return;
  throw new LangGraphInteropError(
    "LANGGRAPH_ERROR_HANDLER",
    `toLangGraph: the error handlers of ${quoteList(handled)} are not exported to LangGraph.js yet (LangGraph.js 1.7.3 runs a handled node's ` +
      "failure through its own errorHandler, which this export does not map). Run the graph on the mini engine, XState or DBOS.",
  );
}

/** The exports of subgraph nodes' children, by the child's tables (`null`: it cannot be exported). */
const children = new WeakMap<ExecutableGraph, ChildGraph | null>();

/**
 * Exports a subgraph node's child the first time it is needed: without a checkpointer (LangGraph gives
 * it its parent's), with its nodes folding their updates into {@link CHILD_UPDATE}. A child LangGraph
 * cannot take (no `fields`, a refused name) is not exported: it runs on the mini engine inside the task.
 *
 * @example
 * ```ts
 * const exportChild = childExport(await loadLangGraph());
 * exportChild(graphView(child).executable, child.spec)?.graph; // the child on LangGraph.js
 * ```
 */
export function childExport(lg: LangGraphModule): ChildExport {
  const exportChild: ChildExport = (executable, spec) => {
    let exported = children.get(executable);
    if (exported === undefined) {
      exported = buildChild(lg, executable, spec, exportChild) ?? null;
      children.set(executable, exported);
    }
    return exported ?? undefined;
  };
  return exportChild;
}

function buildChild(lg: LangGraphModule, executable: ExecutableGraph, spec: GraphSpec, exportChild: ChildExport): ChildGraph | undefined {
  // LangGraph.js counts no visits: a child with loop bounds runs on the mini engine, whose kernel keeps them.
  if ((spec.bounds?.length ?? 0) > 0) return undefined;
  let fields: readonly string[];
  try {
    fields = exportableFields(spec);
  } catch (error) {
    if (error instanceof LangGraphInteropError) return undefined;
    throw error;
  }
  const graph = buildLangGraph(lg, spec, fields, executable, noThreads, {}, { children: exportChild, child: true });
  return { graph, executable };
}

const noThreads: GraphView["settings"] = { interruptBefore: new Set(), interruptAfter: new Set() };

/** A graph that pauses at static interrupts needs LangGraph's checkpointer: without one LangGraph.js cannot pause. */
function checkCheckpointer(threads: GraphView["settings"], options: ToLangGraphOptions): void {
  const interrupts = [...threads.interruptBefore, ...threads.interruptAfter];
  if (interrupts.length === 0 || options.checkpointer !== undefined) return;
  throw new LangGraphInteropError(
    "LANGGRAPH_CHECKPOINTER_REQUIRED",
    `toLangGraph: the graph pauses at interrupts (${quoteList(interrupts)}), and LangGraph.js can pause only with a checkpointer. ` +
      `Pass one: toLangGraph(graph, { checkpointer: new MemorySaver() }).`,
  );
}

/** Checks what LangGraph.js needs before loading it, so a spec problem is reported even without the peer. */
function exportableFields(spec: GraphSpec): readonly string[] {
  const { fields } = spec;
  if (fields === undefined) {
    throw new LangGraphInteropError(
      "LANGGRAPH_FIELDS_REQUIRED",
      `toLangGraph: the graph does not list its state fields. LangGraph.js keeps only keys that have a channel and drops ` +
        `the rest, so it needs every field: pass them as new StateGraph<S>({ fields: ["…", …] }).`,
    );
  }
  // LangGraph.js keeps channels in plain objects and reads them without an own-property check, so a
  // field named after an Object.prototype member would read the inherited function.
  const inherited = fields.filter((field) => field in Object.prototype);
  if (inherited.length > 0) {
    throw new LangGraphInteropError(
      "LANGGRAPH_FIELD_NAME",
      `toLangGraph: LangGraph.js cannot hold the fields ${quoteList(inherited)}: each is the name of an ` +
        `Object.prototype member, which LangGraph.js would read instead of the field. Rename them (the mini engine and XState run them as they are).`,
    );
  }
  const badNames = spec.nodes.flatMap((node) => {
    if (fields.includes(node)) return [`"${node}" is also a state field (LangGraph.js gives fields and nodes one namespace)`];
    if (node in Object.prototype) return [`"${node}" is the name of an Object.prototype member, which LangGraph.js reads as a channel`];
    if (/[|:]/.test(node)) return [`"${node}" contains "|" or ":", which LangGraph.js reserves`];
    return [];
  });
  if (badNames.length > 0) {
    throw new LangGraphInteropError(
      "LANGGRAPH_NODE_NAME",
      `toLangGraph: LangGraph.js refuses these node names: ${badNames.join("; ")}. Rename the nodes.`,
    );
  }
  return fields;
}

/** LangGraph's `StateGraph` builder with names known only at run time (its types accumulate literal node names). */
interface LooseBuilder {
  addNode(nodes: [name: string, node: LangGraphNode, options: { ends?: string[]; defer?: true }][]): LooseBuilder;
  addEdge(from: string | string[], to: string): LooseBuilder;
  addConditionalEdges(source: string, path: LangGraphPath, pathMap: Record<string, string>): LooseBuilder;
  compile(options: {
    readonly checkpointer?: BaseCheckpointSaver;
    readonly interruptBefore?: string[];
    readonly interruptAfter?: string[];
  }): unknown;
}

// Loosely typed inside: LangGraph's builder types accumulate literal node names, which a graph built from data cannot have.
function buildLangGraph(
  lg: LangGraphModule,
  spec: GraphSpec,
  fields: readonly string[],
  executable: ExecutableGraph,
  threads: GraphView["settings"],
  options: ToLangGraphOptions,
  exported: ExportedAs,
): LangGraphGraph {
  const { Annotation, StateGraph } = lg;
  const channels: Record<string, BaseChannel> = {};
  for (const field of fields) {
    const reducer = executable.reducers.get(field);
    channels[field] = reducer === undefined ? Annotation<unknown>() : orderedAggregate(lg, wrapReducer(field, reducer));
  }
  // A child's nodes' updates, folded a superstep at a time (in declaration order) with the child's reducers.
  if (exported.child) {
    channels[CHILD_UPDATE] = orderedAggregate(lg, (folded, update) =>
      subgraphEntry.fold(executable.reducers, folded as State, [{ update: update as State }]),
    );
  }
  const builder = new StateGraph(Annotation.Root(channels)) as unknown as LooseBuilder;
  // LangGraph refuses an empty list of nodes, though it runs a graph without nodes (START → END).
  // A node that returns a Command declares its ends as on LangGraph: its goto is LangGraph's own.
  // A deferred node is LangGraph's own `defer`: it decides the wait as the kernel's deferTasks does.
  const ends = new Map((spec.ends ?? []).map((end) => [end.from, [...end.to]]));
  const deferred = new Set(spec.deferred);
  if (spec.nodes.length > 0) {
    builder.addNode(
      spec.nodes.map((node) => {
        const to = ends.get(node);
        const options = { ...(to === undefined ? {} : { ends: to }), ...(deferred.has(node) ? { defer: true as const } : {}) };
        return [node, wrapNode(lg, executable, node, exported), options];
      }),
    );
  }
  for (const edge of spec.edges) builder.addEdge(edge.from, edge.to);
  for (const fanOut of spec.fanOuts ?? []) for (const to of fanOut.to) builder.addEdge(fanOut.from, to);
  for (const join of spec.joins ?? []) {
    const sources = [...new Set(join.from)];
    // LangGraph refuses a waiting edge into END; a join into END runs nothing after its sources anyway.
    if (join.to === END) for (const source of sources) builder.addEdge(source, END);
    else builder.addEdge(sources, join.to);
  }
  for (const route of spec.routes) builder.addConditionalEdges(route.from, wrapRouter(lg, executable, route.from), { ...route.paths });
  return builder.compile({
    ...(options.checkpointer === undefined ? {} : { checkpointer: options.checkpointer }),
    ...(threads.interruptBefore.size === 0 ? {} : { interruptBefore: [...threads.interruptBefore] }),
    ...(threads.interruptAfter.size === 0 ? {} : { interruptAfter: [...threads.interruptAfter] }),
  }) as unknown as LangGraphGraph;
}
