/**
 * exploreGraph answers the interrupts a graph declares (`compile({ interrupts })`) from their answer
 * schemas when no answers arbitrary covers them: zod 4 through its JSON Schema; valibot, which offers
 * none, is a coded error asking for an explicit arbitrary.
 */
import * as fc from "fast-check";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { coveragePlan } from "../../src/coverage/index.js";
import { append, declaredInterruptsOf, defineInterrupt, END, START, stateGraph, type DeclaredInterrupt } from "../../src/index.js";
import { exploreGraph } from "../../src/testing/index.js";

interface Review {
  draft: string;
  verdict: "publish" | "revise" | "drop" | null;
  note: string | null;
  log: string[];
}
type Answer = { verdict: "publish" | "revise" | "drop"; note?: string | undefined };

const zodApproval = defineInterrupt<{ draft: string }, Answer>("approval", {
  schema: z.object({ verdict: z.enum(["publish", "revise", "drop"]), note: z.string().max(12).optional() }),
});
const valibotApproval = defineInterrupt<{ draft: string }, Answer>("approval", {
  schema: v.object({ verdict: v.picklist(["publish", "revise", "drop"]), note: v.optional(v.string()) }),
});

function reviewGraph(approval: typeof zodApproval, interrupts: readonly DeclaredInterrupt[] = [approval]) {
  return stateGraph<Review>()({ reducers: { log: append } })
    .addNode("write", () => ({ draft: "brief", log: ["write"] }))
    .addNode("review", (s) => {
      const answer = approval({ draft: s.draft });
      return { verdict: answer.verdict, note: answer.note ?? null, log: ["review"] };
    })
    .addNode("publish", () => ({ log: ["publish"] }))
    .addNode("revise", () => ({ log: ["revise"] }))
    .addNode("drop", () => ({ log: ["drop"] }))
    .addEdge(START, "write")
    .addEdge("write", "review")
    .addConditionalEdges("review", (s) => s.verdict ?? "drop", { publish: "publish", revise: "revise", drop: "drop" })
    .addEdge("publish", END)
    .addEdge("revise", END)
    .addEdge("drop", END)
    .compile({ interrupts });
}
const input = fc.constant<Review>({ draft: "", verdict: null, note: null, log: [] });

describe("a graph's declared interrupts", () => {
  it("are reachable from the compiled graph, with their answer schemas", () => {
    const graph = reviewGraph(zodApproval);
    expect(declaredInterruptsOf(graph)).toEqual([zodApproval]);
    expect(declaredInterruptsOf(graph)[0]?.answerSchema).toBe(zodApproval.answerSchema);
    expect(declaredInterruptsOf(reviewGraph(zodApproval, []))).toEqual([]);
  });

  it("must be defineInterrupt values with distinct names (INVALID_OPTION)", () => {
    const other = defineInterrupt<{ draft: string }, Answer>("approval");
    expect(() => reviewGraph(zodApproval, [zodApproval, other])).toThrow(/two different interrupts named "approval"/);
    // @ts-expect-error: a string is not a defineInterrupt value
    expect(() => reviewGraph(zodApproval, ["approval"])).toThrow(expect.objectContaining({ code: "INVALID_OPTION" }));
  });
});

describe("exploreGraph answers declared interrupts from their schemas", () => {
  it("zod 4: every answer fits the schema, and every verdict's path is reached without an answers option", async () => {
    const graph = reviewGraph(zodApproval);
    const answers: unknown[] = [];
    const report = await exploreGraph(graph, {
      input,
      runs: 60,
      seed: 3,
      plan: coveragePlan(graph),
      invariants: {
        "the note fits the schema": (s, step) => {
          if (step.nodes.includes("review")) answers.push({ verdict: s.verdict, note: s.note });
          return s.note === null || s.note.length <= 12 || `note of ${s.note.length} characters`;
        },
      },
    });
    expect(report.coverage?.notReached).toEqual([]);
    expect(new Set(report.coverage?.feasible.map(({ path }) => path.name))).toEqual(new Set(["publish", "revise", "drop"]));
    expect(answers.some((answer) => (answer as { note: unknown }).note !== null)).toBe(true);
    for (const feasible of report.coverage?.feasible ?? []) {
      expect(zodApproval.answerSchema?.["~standard"].validate(feasible.answers[0])).toMatchObject({ value: feasible.answers[0] });
    }
  });

  it("an answers arbitrary given for the interrupt wins over its schema", async () => {
    const graph = reviewGraph(zodApproval);
    const report = await exploreGraph(graph, {
      input,
      runs: 20,
      answers: { approval: fc.constant({ verdict: "drop" }) },
      plan: coveragePlan(graph),
    });
    expect(report.coverage?.feasible.map(({ path }) => path.name)).toEqual(["drop"]);
  });

  it("valibot (no JSON Schema): a coded error asking for an explicit answers arbitrary; with one, it runs", async () => {
    const graph = reviewGraph(valibotApproval);
    await expect(exploreGraph(graph, { input, runs: 5 })).rejects.toMatchObject({
      code: "INVALID_OPTION",
      message: expect.stringMatching(
        /exploreGraph: the answers of the interrupt "approval" cannot be drawn from its schema: its schema \(valibot\) offers no JSON Schema.*Pass answers: \{ "approval": /,
      ),
    });
    const answers = { approval: fc.constantFrom<Answer>({ verdict: "publish" }, { verdict: "drop" }) };
    await expect(exploreGraph(graph, { input, runs: 5, answers })).resolves.toMatchObject({ runs: 5 });
  });

  it("a JSON Schema keyword the generator cannot honour is named in the coded error", async () => {
    const coded = defineInterrupt<{ draft: string }, Answer>("approval", {
      schema: z.object({ verdict: z.enum(["publish", "revise", "drop"]), note: z.string().regex(/^[A-Z]+$/) }),
    });
    await expect(exploreGraph(reviewGraph(coded), { input, runs: 5 })).rejects.toThrow(
      /its JSON Schema uses "pattern" at \/properties\/note, which the answer generator does not read/,
    );
  });

  it("an interrupt declared without a schema still needs an answers arbitrary", async () => {
    const plain = defineInterrupt<{ draft: string }, Answer>("approval");
    await expect(exploreGraph(reviewGraph(plain), { input, runs: 2 })).rejects.toThrow(/no answers arbitrary covers it/);
  });
});
