/**
 * `typed-state-graph/render`: diagrams drawn from a graph's spec, as a Mermaid flowchart or Graphviz DOT,
 * with an optional coverage overlay.
 *
 * @module typed-state-graph/render
 */

export { toMermaid } from "./mermaid.js";
export type { MermaidOptions, DiagramSource, DiagramCoverage, ExercisedTransition } from "./mermaid.js";
export { toDot } from "./dot.js";
export type { DotOptions } from "./dot.js";
