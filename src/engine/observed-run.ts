/**
 * A run's side of its observation: opens it from the caller's observer, tracks the superstep an observer
 * saw start, and ends the observation exactly once. `Run` holds one only when someone observes it, so an
 * unobserved run tests one field per hook and allocates nothing for instrumentation.
 */
import { InvalidOptionError } from "../errors.js";
import type { NodeContext } from "./context.js";
import type { ExecutableGraph } from "./executable.js";
import type { ObservedEngine, ObservedRunEnd, RunObservation, RunObserver } from "./observer.js";
import type { RouteTaken, Task } from "./step.js";

/** What a driver passes for its run to be observed. */
export interface ObservedSettings {
  readonly observer?: RunObserver;
  /** The driver, as observers hear it. Default `mini`. */
  readonly engine?: ObservedEngine;
  /** The subgraph node whose child this run is (its observer's parent). */
  readonly parent?: NodeContext;
  /**
   * An observation the driver opened and ends itself (the XState machine, whose run is a `Run` per
   * superstep); the run then reports its supersteps and attempts to it, never `runEnd`.
   */
  readonly observation?: RunObservation;
}

/** @internal One run's observation, as the run reports to it. */
export class ObservedRun {
  /** The run's observer, which a subgraph node hands to its child run. */
  readonly observer: RunObserver | undefined;
  readonly observation: RunObservation;
  readonly #owned: boolean;
  #ended = false;
  /** The superstep an observer saw start and not yet end; 0 for none. */
  #superstep = 0;

  private constructor(observer: RunObserver | undefined, observation: RunObservation, owned: boolean) {
    this.observer = observer;
    this.observation = observation;
    this.#owned = owned;
  }

  /** What the runs of a driver that opened this observation report to (each superstep's `Run` of the XState machine). */
  get settings(): ObservedSettings {
    return this.observer === undefined ? { observation: this.observation } : { observer: this.observer, observation: this.observation };
  }

  /** The run's observation, or `undefined` when nobody observes it. Throws on an observer that is not one. */
  static open(
    graph: ExecutableGraph,
    settings: ObservedSettings | undefined,
    api: string,
    threadId: string | undefined,
    resumed: boolean,
  ): ObservedRun | undefined {
    const observer = settings?.observer;
    if (settings?.observation !== undefined) return new ObservedRun(observer, settings.observation, false);
    if (observer === undefined) return undefined;
    if (typeof observer !== "object" || observer === null || typeof observer.run !== "function") {
      throw new InvalidOptionError(
        `${api}: observer must be an object with a run(start) method, such as otelObserver({ tracer }) from typed-state-graph/otel; got ${observer === null ? "null" : typeof observer}.`,
      );
    }
    const observation = observer.run({
      specHash: graph.specHash,
      nodes: [...graph.nodes.keys()],
      engine: settings?.engine ?? "mini",
      api,
      threadId,
      resumed,
      parent: settings?.parent,
    });
    return observation === undefined ? undefined : new ObservedRun(observer, observation, true);
  }

  superstepStart(superstep: number, tasks: readonly Task[]): void {
    this.#superstep = superstep;
    this.observation.superstepStart?.(
      superstep,
      tasks.map((task) => task.node),
    );
  }

  superstepEnd(error: unknown): void {
    const superstep = this.#superstep;
    if (superstep === 0) return;
    this.#superstep = 0;
    this.observation.superstepEnd?.(superstep, error);
  }

  route(route: RouteTaken): void {
    this.observation.route?.(route);
  }

  /** A checkpoint was saved; one saved after the observation ended (the answers a failed superstep keeps) is not heard. */
  checkpoint(checkpoint: { readonly id: string; readonly step: number; readonly source: string }): void {
    if (!this.#ended) this.observation.checkpoint?.(checkpoint);
  }

  /** The run failed: the open superstep ends with the error, then the run does. */
  failed(error: unknown, supersteps: number): void {
    this.superstepEnd(error);
    this.end({ status: "failed", supersteps, error });
  }

  /** Ends the observation once, when this run opened it. */
  end(end: ObservedRunEnd): void {
    if (this.#ended || !this.#owned) return;
    this.#ended = true;
    this.observation.runEnd?.(end);
  }
}
