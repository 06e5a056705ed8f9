/**
 * Registering a graph as a DBOS workflow. DBOS finds a workflow by name when it recovers a run, in
 * whichever process recovers it, so every process that works a graph's runs registers it, under the
 * same name, before `DBOS.launch()`.
 */
import { DBOS } from "@dbos-inc/dbos-sdk";
import { InvalidOptionError } from "../errors.js";
import { graphView, type ExecutableGraph, type State } from "../engine/_kernel.js";
import type { CompiledGraph } from "../engine/index.js";
import { DBOSRunError } from "./errors.js";
import type { Outcome } from "./_outcome.js";
import { graphWorkflow, type StoredOptions } from "./_workflow.js";
import type { ChildStarter } from "./_child-frame.js";
import { childWorkflow } from "./_child.js";
import type { ContinuedFrom } from "./_paused-at.js";

/** Options of {@link registerOnDBOS}. */
export interface RegisterOnDBOSOptions {
  /**
   * The workflow's name in DBOS (prefixed `tsg:`): the same in every process, and stable across
   * deploys, since a run recorded under one name is recovered under it.
   */
  readonly name: string;
}

/** A registered graph: its workflow function, as DBOS knows it. */
export interface RegisteredGraph {
  readonly name: string;
  readonly executable: ExecutableGraph;
  readonly workflow: (input: State, options: StoredOptions, from?: ContinuedFrom) => Promise<Outcome>;
}

const byGraph = new WeakMap<object, RegisteredGraph>();
const names = new Set<string>();

/**
 * Registers `graph` as the DBOS workflow `tsg:<name>`: call it in every process that starts or works
 * the graph's runs, before `DBOS.launch()`. Returns the graph, for chaining.
 *
 * @throws DBOSRunError `DBOS_ALREADY_LAUNCHED` after `DBOS.launch()`; `DBOS_ALREADY_REGISTERED` when
 * the name or the graph is registered already. InvalidOptionError for an empty name.
 * @example
 * ```ts
 * const graph = registerOnDBOS(buildReportGraph(), { name: "report" });
 * DBOS.setConfig({ name: "reports", systemDatabaseUrl: process.env.DATABASE_URL });
 * await DBOS.launch();
 * const { state } = await runOnDBOS(graph, initialReportState(), { workflowId: "report-42" });
 * ```
 */
export function registerOnDBOS<S extends object>(graph: CompiledGraph<S>, options: RegisterOnDBOSOptions): CompiledGraph<S> {
  const executable = graphView(graph).executable;
  const name = options?.name;
  if (typeof name !== "string" || name.length === 0) {
    throw new InvalidOptionError(`registerOnDBOS: name must be a non-empty string (the workflow's name in DBOS); got ${String(name)}.`);
  }
  if (DBOS.isInitialized()) {
    throw new DBOSRunError(
      "DBOS_ALREADY_LAUNCHED",
      `registerOnDBOS: "${name}" was registered after DBOS.launch(); register every graph before launching, so a run recovered in this process finds its workflow.`,
    );
  }
  if (names.has(name) || byGraph.has(graph)) {
    const what = names.has(name) ? `the name "${name}" is taken` : `this graph is registered as "${byGraph.get(graph)?.name}"`;
    throw new DBOSRunError("DBOS_ALREADY_REGISTERED", `registerOnDBOS: ${what}; register each graph once, under its own name.`);
  }
  // The children of its subgraph tasks, at any depth, run as child workflows of one more registered workflow.
  const child: ChildStarter = DBOS.registerWorkflow(
    childWorkflow(executable, () => child),
    { name: `tsg-subgraph:${name}` },
  );
  const workflow = DBOS.registerWorkflow(
    graphWorkflow(graph, executable, () => child),
    { name: `tsg:${name}` },
  );
  byGraph.set(graph, { name, executable, workflow });
  names.add(name);
  return graph;
}

/** The registration of `graph`, or the `DBOS_GRAPH_NOT_REGISTERED` error naming `api`. */
export function registrationOf(graph: object, api: string): RegisteredGraph {
  const registered = byGraph.get(graph);
  if (registered !== undefined) return registered;
  void graphView(graph).executable; // not a compiled graph at all: the core's own error
  throw new DBOSRunError(
    "DBOS_GRAPH_NOT_REGISTERED",
    `${api}: this graph is not registered with DBOS; call registerOnDBOS(graph, { name }) before DBOS.launch(), in every process that runs it.`,
  );
}
