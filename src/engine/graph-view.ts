/**
 * The one read-only view of a compiled graph for the layers that read its tables (the exporters,
 * coverage, the testing helpers, the drivers): its frozen tables and what `compile()` fixed for
 * paused runs, each read when asked.
 */
import { executableOf, threadSettingsOf } from "./compiled-graph.js";
import type { ExecutableGraph } from "./executable.js";
import type { ThreadSettings } from "./threads/types.js";

/** What a driver or an exporter reads of a compiled graph. */
export interface GraphView {
  /**
   * The frozen tables: node functions, transitions (with routers), reducers, checks. Reading it for an
   * object that is not a compiled graph throws the core's coded error (`INVALID_OPTION`).
   */
  readonly executable: ExecutableGraph;
  /** What `compile()` fixed for paused runs (`interruptBefore`, `interruptAfter`); none for any other object. */
  readonly settings: ThreadSettings;
}

class CompiledGraphView implements GraphView {
  readonly #graph: object;

  constructor(graph: object) {
    this.#graph = graph;
  }

  get executable(): ExecutableGraph {
    return executableOf(this.#graph);
  }

  get settings(): ThreadSettings {
    return threadSettingsOf(this.#graph);
  }
}

/**
 * The view of `graph` (a compiled graph; anything else throws when its tables are read).
 *
 * @example
 * ```ts
 * const { executable, settings } = graphView(compiled);
 * if (settings.interruptBefore.size > 0) refuse();
 * ```
 */
export function graphView(graph: object): GraphView {
  return new CompiledGraphView(graph);
}
