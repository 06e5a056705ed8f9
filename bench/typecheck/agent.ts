/**
 * The realistic graph of the type-check benchmark (issue 35): a 60-node agent, written as a user writes
 * one in a single builder chain. A `Command` supervisor with `ends`, a `Send` map-reduce (a list-form
 * route sending each topic to a worker that takes its own input), a fan-out joined into one node, a
 * tool router with a path map of 24 tools, a writing loop, and a review node that asks a person through
 * a typed interrupt. It declares its reducers' fields (so the parallel-write check is on) and runs once
 * without a thread and once on one.
 */

/** The graph's size: asserted by the smoke test, so the figures stay those of a 60-node graph. */
export const AGENT_NODES = 60;

const TOOLS = 24;
const CHAIN = 19;
const SOURCES = ["web", "papers", "news", "code"] as const;

const tool = (k: number): string => `tool_${k}`;
const step = (k: number): string => `check_${k}`;

/** The TypeScript source of the agent graph; it imports the package from `./lib/index.js`. */
export function agentGraphSource(): string {
  const calls: string[] = [
    `.addNode("supervisor", (s) => new Command({ update: { steps: s.steps + 1 }, goto: s.route === "research" ? "plan" : s.route === "write" ? "outline" : s.route === "tools" ? "tool_router" : END }), { ends: ["plan", "outline", "tool_router", END] })`,
    `.addEdge(START, "supervisor")`,
    `.addNode("plan", (s) => ({ plan: s.messages.map((m) => m.content) }))`,
    `.addNode("worker", (input: { topic: string }) => ({ results: [\`found \${input.topic}\`] }))`,
    `.addNode("reduce", (s) => ({ summary: s.results.join("; ") }))`,
    `.addConditionalEdges("plan", (s) => s.plan.map((topic) => new Send("worker", { topic })), ["worker"])`,
    `.addEdge("worker", "reduce")`,
    `.addNode("gather", (s) => ({ errors: s.summary === "" ? ["empty summary"] : [] }))`,
    `.addEdge("reduce", "gather")`,
    ...SOURCES.map((source) => `.addNode("${source}", async (s) => ({ results: [\`${source}: \${s.summary}\`] }))`),
    `.addEdge("gather", [${SOURCES.map((s) => `"${s}"`).join(", ")}])`,
    `.addNode("merge", (s) => ({ summary: s.results.slice(-4).join("\\n") }))`,
    `.addEdge([${SOURCES.map((s) => `"${s}"`).join(", ")}], "merge")`,
  ];
  for (let k = 0; k < CHAIN; k++) {
    calls.push(`.addNode("${step(k)}", (s) => (s.steps > ${k + 100} ? { errors: ["${step(k)}: too many steps"] } : {}))`);
    calls.push(`.addEdge("${k === 0 ? "merge" : step(k - 1)}", "${step(k)}")`);
  }
  calls.push(`.addEdge("${step(CHAIN - 1)}", "supervisor")`);
  calls.push(`.addNode("tool_router", (s) => ({ messages: [{ role: "assistant", content: "calling a tool" }] }))`);
  for (let k = 0; k < TOOLS; k++) {
    calls.push(
      `.addNode("${tool(k)}", async (s) => ({ messages: [{ role: "tool", content: "${tool(k)} done" }], toolCalls: s.toolCalls + 1 }))`,
    );
    calls.push(`.addEdge("${tool(k)}", "supervisor")`);
  }
  const keys = Array.from({ length: TOOLS }, (_, k) => `"${tool(k)}"`).join(" | ");
  const paths = Array.from({ length: TOOLS }, (_, k) => `${tool(k)}: "${tool(k)}"`).join(", ");
  calls.push(
    `.addConditionalEdges("tool_router", (s): ${keys} => \`tool_\${s.toolCalls % ${TOOLS}}\` as ${keys}, { ${paths} })`,
    `.addNode("outline", (s) => ({ draft: s.plan.join("\\n") }))`,
    `.addNode("draft", async (s) => ({ draft: \`\${s.draft}\\n\${s.summary}\` }))`,
    `.addEdge("outline", "draft")`,
    `.addNode("critique", (s) => ({ messages: [{ role: "assistant", content: \`critique of \${s.draft}\` }] }))`,
    `.addEdge("draft", "critique")`,
    `.addNode("revise", (s) => ({ draft: s.draft.trim() }))`,
    `.addNode("review", (s) => ({ approved: approval({ draft: s.draft, reviewer: "editor" }) }))`,
    `.addConditionalEdges("critique", (s): "revise" | "review" => (s.draft.length < 100 ? "revise" : "review"), { revise: "revise", review: "review" })`,
    `.addEdge("revise", "critique")`,
    `.addNode("publish", (s) => ({ messages: [{ role: "assistant", content: s.draft }], route: "done" as const }))`,
    `.addConditionalEdges("review", (s): "publish" | "redo" => (s.approved ? "publish" : "redo"), { publish: "publish", redo: "draft" })`,
    `.addEdge("publish", END)`,
  );
  return [
    `// The ${AGENT_NODES}-node agent graph: a Command supervisor, a Send map-reduce, a fan-out and join, a tool router, a typed interrupt.`,
    `import { append, Command, defineInterrupt, END, Send, START, StateGraph } from "./lib/index.js";`,
    `import { MemoryCheckpointer } from "./lib/persistence/index.js";`,
    "",
    `interface Message {`,
    `  role: "user" | "assistant" | "tool";`,
    `  content: string;`,
    `}`,
    `interface S {`,
    `  messages: Message[];`,
    `  plan: string[];`,
    `  results: string[];`,
    `  errors: string[];`,
    `  summary: string;`,
    `  draft: string;`,
    `  approved: boolean;`,
    `  route: "research" | "write" | "tools" | "done";`,
    `  steps: number;`,
    `  toolCalls: number;`,
    `}`,
    "",
    `const approval = defineInterrupt<{ draft: string; reviewer: string }, boolean>("approval");`,
    "",
    `export const graph = new StateGraph<S, "messages" | "results" | "errors">({`,
    `  reducers: { messages: append, results: append, errors: append },`,
    `})`,
    ...calls.map((call) => `  ${call}`),
    `  .compile();`,
    "",
    `const initial: S = { messages: [{ role: "user", content: "write about graphs" }], plan: [], results: [], errors: [], summary: "", draft: "", approved: false, route: "research", steps: 0, toolCalls: 0 };`,
    `export const run = graph.invoke(initial, { maxSteps: 200 });`,
    `export const threaded = graph.invoke(initial, { threadId: "t", checkpointer: new MemoryCheckpointer() });`,
    "",
  ].join("\n");
}
