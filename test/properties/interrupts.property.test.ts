/**
 * Property: a graph whose parallel nodes interrupt, resumed in random batches (partial resume maps,
 * any order), ends in the same state as the same graph whose nodes are handed the answers up front.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { append, Command, END, interrupt, START, StateGraph, type CompiledGraph } from "../../src/index.js";
import { MemoryCheckpointer } from "../../src/persistence/index.js";

interface Answers {
  log: string[];
}

/** The builder with names known only at run time (the compile-time name checks need literals). */
interface LooseBuilder {
  addNode(name: string, node: (state: Answers) => Partial<Answers>): LooseBuilder;
  addEdge(from: string | readonly string[], to: string | readonly string[]): LooseBuilder;
  compile(): CompiledGraph<Answers>;
}

/** START → plan → n parallel nodes (node i asks when asks[i], then fails its first fails[i] runs past it) → done → END. */
function graphOf(
  asks: readonly boolean[],
  answer: (node: string) => string | undefined,
  fails: readonly number[] = [],
): CompiledGraph<Answers> {
  const left = [...fails];
  const names = asks.map((_, i) => `n${i}`);
  let builder = (new StateGraph<Answers>({ reducers: { log: append } }) as unknown as LooseBuilder).addNode("plan", () => ({
    log: ["plan"],
  }));
  for (const [i, name] of names.entries()) {
    builder = builder.addNode(name, () => {
      const value = asks[i] ? (answer(name) ?? interrupt<string>({ node: name })) : "none";
      if ((left[i] ?? 0) > 0) {
        left[i] = (left[i] ?? 0) - 1;
        throw new Error(`${name}: transient`);
      }
      return { log: [`${name}=${value}`] };
    });
  }
  return builder
    .addNode("done", () => ({ log: ["done"] }))
    .addEdge(START, "plan")
    .addEdge("plan", names)
    .addEdge(names, "done")
    .addEdge("done", END)
    .compile();
}

describe("interrupts resumed in any batches give the uninterrupted run's state", () => {
  it("holds for random graphs, answers and resume schedules", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.boolean(), { minLength: 2, maxLength: 4 }),
        fc.array(fc.string({ maxLength: 3 }), { minLength: 4, maxLength: 4 }),
        fc.array(fc.nat(3), { minLength: 4, maxLength: 4 }),
        async (asks, values, batchOf) => {
          const answerOf = (node: string) => values[Number(node.slice(1))] as string;
          const expected = await graphOf(asks, answerOf).invoke({ log: [] });
          const graph = graphOf(asks, () => undefined);
          const checkpointer = new MemoryCheckpointer();
          let result = await graph.invoke({ log: [] }, { threadId: "t", checkpointer });
          for (let guard = 0; result.status === "interrupted" && guard < 10; guard++) {
            const pending = result.interrupt.interrupts ?? [];
            // This round answers the pending interrupts of the lowest batch number (at least one).
            const batch = Math.min(...pending.map((p) => batchOf[Number(p.node.slice(1))] ?? 0));
            const chosen = pending.filter((p) => (batchOf[Number(p.node.slice(1))] ?? 0) === batch);
            const resume = Object.fromEntries(chosen.map((p) => [p.id, answerOf(p.node)]));
            result = await graph.invoke(new Command({ resume }), { threadId: "t", checkpointer });
          }
          expect(result.status).toBe("done");
          expect(result.state).toEqual(expected.state);
          expect(result.trace).toEqual(expected.trace);
        },
      ),
      { numRuns: 40 },
    );
  });

  it("holds when nodes fail past their answers: null retries them with the answers, never asking an answered interrupt again", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.boolean(), { minLength: 2, maxLength: 4 }),
        fc.array(fc.nat(2), { minLength: 4, maxLength: 4 }),
        fc.array(fc.nat(3), { minLength: 4, maxLength: 4 }),
        async (asks, fails, batchOf) => {
          const answerOf = (node: string) => `${node}!`;
          const expected = await graphOf(asks, answerOf).invoke({ log: [] });
          const graph = graphOf(asks, () => undefined, fails);
          const checkpointer = new MemoryCheckpointer();
          const answered = new Set<string>();
          const call = (input: Answers | Command | null) =>
            graph.invoke(input as Answers, { threadId: "t", checkpointer }).catch((error: unknown) => {
              expect(error).toMatchObject({ code: "NODE_FAILED" });
              return undefined;
            });
          let result = await call({ log: [] });
          for (let guard = 0; result?.status !== "done" && guard < 30; guard++) {
            if (result === undefined) {
              result = await call(null);
              continue;
            }
            const pending = result.status === "interrupted" ? (result.interrupt.interrupts ?? []) : [];
            for (const p of pending) expect(answered.has(p.id), `${p.id} was answered, and asked again`).toBe(false);
            const batch = Math.min(...pending.map((p) => batchOf[Number(p.node.slice(1))] ?? 0));
            const chosen = pending.filter((p) => (batchOf[Number(p.node.slice(1))] ?? 0) === batch);
            for (const p of chosen) answered.add(p.id);
            result = await call(new Command({ resume: Object.fromEntries(chosen.map((p) => [p.id, answerOf(p.node)])) }));
          }
          expect(result?.status).toBe("done");
          expect(result?.state).toEqual(expected.state);
          expect(result?.trace).toEqual(expected.trace);
        },
      ),
      { numRuns: 40 },
    );
  });
});
