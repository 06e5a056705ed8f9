/** Shared by the persistence tests: checkpointers in temporary files, and small graphs. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { append, END, Send, START, StateGraph, type CompileOptions } from "../../src/index.js";
import { MemoryCheckpointer, SqliteCheckpointer, type Checkpointer } from "../../src/persistence/index.js";

/** A checkpointer to test, and how to dispose of it. */
export interface OpenedCheckpointer {
  readonly checkpointer: Checkpointer;
  close(): void;
}

/** A fresh temporary directory and its cleanup. */
export function tempDir(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), "tsg-persistence-"));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Every checkpointer the contract suite runs against, by name. */
export const CHECKPOINTERS: readonly (readonly [string, () => OpenedCheckpointer])[] = [
  ["MemoryCheckpointer", () => ({ checkpointer: new MemoryCheckpointer(), close: () => undefined })],
  [
    "SqliteCheckpointer",
    () => {
      const { dir, remove } = tempDir();
      const checkpointer = new SqliteCheckpointer(join(dir, "checkpoints.sqlite"));
      return {
        checkpointer,
        close: () => {
          checkpointer.close();
          remove();
        },
      };
    },
  ],
];

/** The state of {@link parallelGraph}. */
export interface ParallelState {
  log: string[];
  docs: string[];
  sums: string[];
}

/**
 * START → plan → {left, right}; left → left2; [left2, right] join → gather; gather Sends one
 * `summarize` per doc. It exercises what a checkpoint must carry besides the state: join arrivals
 * (right arrives a superstep before left2) and Send inputs.
 */
export function parallelGraph(options: CompileOptions<"plan" | "left" | "left2" | "right" | "gather" | "summarize"> = {}) {
  return new StateGraph<ParallelState>({ reducers: { log: append, sums: append } })
    .addNode("plan", () => ({ log: ["plan"], docs: ["x", "y", "z"] }))
    .addNode("left", () => ({ log: ["left"] }))
    .addNode("left2", () => ({ log: ["left2"] }))
    .addNode("right", () => ({ log: ["right"] }))
    .addNode("gather", (s) => ({ log: [`gather ${s.docs.length}`] }))
    .addNode("summarize", (input: { doc: string }) => ({ sums: [`sum ${input.doc}`] }))
    .addEdge(START, "plan")
    .addEdge("plan", ["left", "right"])
    .addEdge("left", "left2")
    .addEdge(["left2", "right"], "gather")
    .addConditionalEdges("gather", (s) => s.docs.map((doc) => new Send("summarize", { doc })), ["summarize"])
    .addEdge("summarize", END)
    .compile(options);
}

export const parallelInput = (): ParallelState => ({ log: [], docs: [], sums: [] });
