/**
 * What a run on LangGraph.js learns from inside its nodes and routers: which node started and which
 * route each router took. LangGraph's stream carries neither, and `runOnLangGraph` needs both to
 * report the same trace, routes and "node not started" as the mini engine. It travels in the run's
 * `configurable`, so one exported graph serves concurrent runs.
 */
import type { RouteTaken } from "../engine/step.js";

/** The `configurable` key the recorder travels under. */
export const RECORDER_KEY = "typed_state_graph_recorder";

/** One run's record. Nodes and routers of a graph run without it (a plain LangGraph invoke) record nothing. */
export class RunRecorder {
  /** Every node that started, in order (failed ones included). */
  readonly started: string[] = [];
  readonly #routes = new Map<string, RouteTaken[]>();

  nodeStarted(node: string): void {
    this.started.push(node);
  }

  routed(route: RouteTaken): void {
    const queue = this.#routes.get(route.from);
    if (queue === undefined) this.#routes.set(route.from, [route]);
    else queue.push(route);
  }

  /** The oldest route taken from `source` not yet claimed by a step. */
  takeRoute(source: string): RouteTaken | undefined {
    return this.#routes.get(source)?.shift();
  }
}

/** The recorder of the run a node or router was called in, if any. */
export function recorderOf(config: unknown): RunRecorder | undefined {
  if (typeof config !== "object" || config === null) return undefined;
  const configurable = (config as { configurable?: unknown }).configurable;
  if (typeof configurable !== "object" || configurable === null) return undefined;
  const recorder = (configurable as Record<string, unknown>)[RECORDER_KEY];
  return recorder instanceof RunRecorder ? recorder : undefined;
}
