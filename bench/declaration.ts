/**
 * The cost of declaring and validating big graphs: the builder (N addNode + N addEdge, then compile),
 * bindSpec on an N-node spec, validation of a fan-out to N targets, and bindSpec with N problems. Each
 * must be linear (issue 16 §6: 10k nodes under 0.5 s, 100k under 5 s). Writes the `declaration` section
 * of docs/benchmarks.md.
 *
 * Run: npx tsc -p bench/tsconfig.json && node bench/dist/bench/declaration.js [--no-write]
 */
import { resolve } from "node:path";
import { bindSpec, END, GraphValidationError, START, StateGraph, validateTopology, type GraphSpec } from "../src/index.js";
import { duration, table, writeSection } from "./_markdown.js";

type State = { readonly i: number };
const increment = (state: State) => ({ i: state.i + 1 });
const names = (n: number) => Array.from({ length: n }, (_, k) => `n${k}`);

function builderChain(n: number): void {
  const nodes = names(n);
  let builder = new StateGraph<State>() as unknown as LooseBuilder;
  for (const name of nodes) builder = builder.addNode(name, increment);
  builder = builder.addEdge(START, nodes[0] as string);
  for (let k = 0; k < n; k++) builder = builder.addEdge(nodes[k] as string, nodes[k + 1] ?? END);
  builder.compile({ typeLevelTopology: false });
}

/** The runtime builder without its type-level checks: a 100k-call chain is a type-check benchmark of its own. */
interface LooseBuilder {
  addNode(name: string, node: unknown): LooseBuilder;
  addEdge(from: string, to: string): LooseBuilder;
  compile(options: { typeLevelTopology: false }): unknown;
}

function chainSpec(n: number): GraphSpec {
  const nodes = names(n);
  return { nodes, edges: [START, ...nodes].map((from, k) => ({ from, to: nodes[k] ?? END })), routes: [], reducers: [] };
}

function bindChain(n: number): () => void {
  const spec = JSON.parse(JSON.stringify(chainSpec(n))) as unknown;
  const implementations = { nodes: Object.fromEntries(names(n).map((name) => [name, increment])) };
  return () => void bindSpec(spec, implementations);
}

function fanOutValidation(n: number): () => void {
  const targets = names(n);
  const spec: GraphSpec = {
    nodes: ["plan", ...targets],
    edges: [{ from: START, to: "plan" }, ...targets.map((from) => ({ from, to: END }))],
    fanOuts: [{ from: "plan", to: targets }],
    routes: [],
    reducers: [],
  };
  return () => {
    if (validateTopology(spec).length > 0) throw new Error("bench: the fan-out spec must be valid");
  };
}

function manyProblems(n: number): () => void {
  const spec = { nodes: ["a"], edges: [{ from: START, to: "a" }], routes: [], fanOuts: [{ from: "a", to: names(n) }] };
  return () => {
    try {
      bindSpec(spec as unknown, { nodes: { a: increment } });
    } catch (error) {
      if (error instanceof GraphValidationError && error.problems.length >= n) return;
      throw error;
    }
    throw new Error("bench: the spec must be refused");
  };
}

/** The median of `rounds` timed calls (after one untimed warm-up call), in ms. */
function median(run: () => void, rounds: number): number {
  run();
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const start = performance.now();
    run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] as number;
}

interface Row {
  readonly what: string;
  readonly n: number;
  readonly ms: number;
  readonly target?: number;
}

const rows: Row[] = [];
for (const n of [1_000, 10_000, 100_000]) {
  const rounds = n >= 100_000 ? 3 : 7;
  const target = n === 10_000 ? 500 : n === 100_000 ? 5_000 : undefined;
  const withTarget = (row: Omit<Row, "target">): Row => (target === undefined ? row : { ...row, target });
  rows.push(withTarget({ what: "builder: N addNode + N addEdge, then compile", n, ms: median(() => builderChain(n), rounds) }));
  rows.push(withTarget({ what: "bindSpec on an N-node chain spec (parsed JSON)", n, ms: median(bindChain(n), rounds) }));
  rows.push(withTarget({ what: "validateTopology of a fan-out to N targets", n, ms: median(fanOutValidation(n), rounds) }));
  rows.push({ what: "bindSpec refusing a fan-out to N undeclared targets (N problems)", n, ms: median(manyProblems(n), rounds) });
  console.error(`[bench] N=${n} done`);
}

const perNode = (row: Row) => duration(row.ms / row.n);
const markdown = [
  "### declaring and validating big graphs (median of 7 calls, 3 for N = 100,000)",
  "",
  table(
    ["what", "N", "time", "per node", "target", "met?"],
    rows.map((row) => [
      row.what,
      row.n.toLocaleString("en-US"),
      duration(row.ms),
      perNode(row),
      row.target === undefined ? "" : `< ${duration(row.target)}`,
      row.target === undefined ? "" : row.ms < row.target ? "met" : "**missed**",
    ]),
  ),
].join("\n");
console.log(markdown);
if (!process.argv.includes("--no-write")) {
  const file = resolve(process.cwd(), "docs/benchmarks.md");
  writeSection(file, "declaration", markdown);
  console.error(`[bench] wrote the declaration section of ${file}`);
}
