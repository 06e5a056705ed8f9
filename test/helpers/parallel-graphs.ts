/** Parallel test graphs shared by the engine and XState suites. */
import { append, END, START, StateGraph, union } from "../../src/index.js";

export interface ResearchLike {
  topic: string;
  findings: string[];
  log: string[];
  summary: string | null;
  docs: string[];
}

export const researchInput = (): ResearchLike => ({ topic: "tides", findings: [], log: [], summary: null, docs: [] });

/** A promise a test resolves by hand: branches wait on it to prove they overlap. */
export function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** START → plan → {web, papers, internal} → synthesize → END, each branch built by `branch`. */
export function fanOutGraph(branch: (name: string) => (s: ResearchLike) => Promise<Partial<ResearchLike>> | Partial<ResearchLike>) {
  return new StateGraph<ResearchLike>({ reducers: { findings: union, log: append } })
    .addNode("plan", (s) => ({ log: [`plan ${s.topic}`] }))
    .addNode("web", branch("web"))
    .addNode("papers", branch("papers"))
    .addNode("internal", branch("internal"))
    .addNode("synthesize", (s) => ({ summary: s.findings.join(", ") }))
    .addEdge(START, "plan")
    .addEdge("plan", ["web", "papers", "internal"])
    .addEdge(["web", "papers", "internal"], "synthesize")
    .addEdge("synthesize", END)
    .compile();
}

/** START → plan → {quick, slow1 → slow2} → join → END: the join waits for a branch two supersteps long. */
export function slowJoinGraph() {
  return new StateGraph<ResearchLike>({ reducers: { findings: union, log: append } })
    .addNode("plan", () => ({}))
    .addNode("quick", () => ({ findings: ["quick"] }))
    .addNode("slow1", () => ({ findings: ["slow1"] }))
    .addNode("slow2", () => ({ findings: ["slow2"] }))
    .addNode("join", (s) => ({ summary: s.findings.join("+") }))
    .addEdge(START, "plan")
    .addEdge("plan", ["quick", "slow1"])
    .addEdge("slow1", "slow2")
    .addEdge(["quick", "slow2"], "join")
    .addEdge("join", END)
    .compile();
}
