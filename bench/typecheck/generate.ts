/**
 * Generated graphs for the type-check benchmark, written the way a user writes a large graph: a chain
 * of nodes `n0 … n(N-1)` with a conditional back-edge every 10 nodes (`n9` goes back to `n0` or on to
 * `n10`), the last node leading to END. Two forms: the builder, split into composed functions of at
 * most 100 calls (one chain of about 1000 calls overflows the stack on TS 6), and `defineGraph`. Beside
 * them, the realistic agent graph of `agent.ts`.
 */

import { agentGraphSource } from "./agent.js";

/**
 * The two ways of writing the chain, the builder chain declared with `loops: "bounded"` (each routing
 * node bounded, so the type-level cycle check runs and passes), and the fixed 60-node agent graph of
 * `agent.ts` (`nodes` is then ignored).
 */
export type GraphForm = "builder" | "bounded" | "defineGraph" | "agent";

/** What to generate. */
export interface GraphSource {
  readonly form: GraphForm;
  readonly nodes: number;
  /** `false` passes `{ typeLevelTopology: false }`: run-time validation only. */
  readonly typeLevelTopology: boolean;
  /**
   * Adds a node `orphan` that nothing leads to (it leads to END): a defect only the reachability search
   * finds, so a check that reports it proves the search ran.
   */
  readonly orphan?: boolean;
}

/** The message the reachability search gives for the orphan (both forms word it alike). */
export const ORPHAN_MESSAGE = `node "orphan" is not reachable from START`;

/** The start of the message a graph too deep for the search gets. */
export const TOO_DEEP_MESSAGE = "too deep for the type-level reachability search";

/** Builder calls per composed function. */
export const CALLS_PER_FUNCTION = 100;

/** Every 10th node routes: back 9 nodes, or on. */
const LOOP = 10;

const STATE = `interface S {
  readonly i: number;
  readonly trail: readonly string[];
}`;

const name = (k: number): string => `n${k}`;
const isRouter = (k: number, n: number): boolean => k % LOOP === LOOP - 1 && k < n - 1;
const nodeFunction = (k: number): string =>
  k % 5 === 4 ? `(s) => ({ trail: [...s.trail, "${name(k)}"] })` : `(s) => ({ i: s.i + ${(k % 3) + 1} })`;
/** The builder infers the router's parameter; `route` comes before the graph, so its router annotates it. */
const router = (parameter: string): string => `(${parameter}): "back" | "next" => (s.i % 7 === 0 ? "back" : "next")`;
const paths = (k: number): string => `{ back: "${name(k - (LOOP - 1))}", next: "${name(k + 1)}" }`;
const input = `{ i: 0, trail: [] }`;

/** The TypeScript source of one graph; it imports the package from `./lib/index.js`. */
export function graphSource(source: GraphSource): string {
  if (source.form === "agent") return agentGraphSource();
  return source.form === "defineGraph" ? defineGraphSource(source) : builderSource(source);
}

function builderSource({ form, nodes: n, typeLevelTopology, orphan = false }: GraphSource): string {
  const bounded = form === "bounded";
  // Each node is declared before the rule that leads to it, as the builder requires.
  const calls: string[] = [];
  for (let k = 0; k < n; k++) {
    const bound = bounded && isRouter(k, n) ? `, { bound: { max: 3, exit: "${name(k + 1)}" } }` : "";
    calls.push(`.addNode("${name(k)}", ${nodeFunction(k)}${bound})`);
    if (k === 0) calls.push(`.addEdge(START, "${name(0)}")`);
    else if (isRouter(k - 1, n)) calls.push(`.addConditionalEdges("${name(k - 1)}", ${router("s")}, ${paths(k - 1)})`);
    else calls.push(`.addEdge("${name(k - 1)}", "${name(k)}")`);
  }
  calls.push(`.addEdge("${name(n - 1)}", END)`);
  if (orphan) calls.push(`.addNode("orphan", (s) => ({ i: s.i }))`, `.addEdge("orphan", END)`);
  const parts: string[] = [];
  for (let from = 0; from < calls.length; from += CALLS_PER_FUNCTION) {
    const index = parts.length + 1;
    const parameter = index === 1 ? (bounded ? "typeof start" : "StateGraph<S>") : `ReturnType<typeof part${index - 1}>`;
    parts.push(
      `function part${index}(g: ${parameter}) {\n  return g\n    ${calls.slice(from, from + CALLS_PER_FUNCTION).join("\n    ")};\n}`,
    );
  }
  const composed = parts.reduce((inner, _, k) => `part${k + 1}(${inner})`, bounded ? "start" : "new StateGraph<S>()");
  const options = typeLevelTopology ? "" : "{ typeLevelTopology: false }";
  return [
    `// ${n}-node builder chain, ${parts.length} composed functions of at most ${CALLS_PER_FUNCTION} calls.`,
    `import { END, START, ${bounded ? "stateGraph" : "StateGraph"} } from "./lib/index.js";`,
    "",
    STATE,
    "",
    ...(bounded ? [`const start = stateGraph<S>()({ loops: "bounded" });`, ""] : []),
    ...parts.flatMap((part) => [part, ""]),
    `export const graph = ${composed}.compile(${options});`,
    `export const run = graph.invoke(${input}, { maxSteps: ${10 * n} });`,
    "",
  ].join("\n");
}

function defineGraphSource({ nodes: n, typeLevelTopology, orphan = false }: GraphSource): string {
  const nodes = Array.from({ length: n }, (_, k) => `    ${name(k)}: ${nodeFunction(k)},`);
  const edges = [`    [START, "${name(0)}"],`];
  if (orphan) {
    nodes.push(`    orphan: (s) => ({ i: s.i }),`);
    edges.push(`    ["orphan", END],`);
  }
  const routes: string[] = [];
  for (let k = 0; k < n; k++) {
    if (isRouter(k, n)) routes.push(`    ${name(k)}: route(${router("s: S")}, ${paths(k)}),`);
    else edges.push(`    ["${name(k)}", ${k === n - 1 ? "END" : `"${name(k + 1)}"`}],`);
  }
  const options = typeLevelTopology ? "" : ", { typeLevelTopology: false }";
  return [
    `// ${n}-node graph declared with defineGraph.`,
    `import { defineGraph, END, route, START } from "./lib/index.js";`,
    "",
    STATE,
    "",
    `export const graph = defineGraph<S>()(`,
    `  {`,
    `  nodes: {`,
    ...nodes,
    `  },`,
    `  edges: [`,
    ...edges,
    `  ],`,
    `  routes: {`,
    ...routes,
    `  },`,
    `  }${options},`,
    `);`,
    `export const run = graph.invoke(${input}, { maxSteps: ${10 * n} });`,
    "",
  ].join("\n");
}
