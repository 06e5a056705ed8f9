/**
 * Versions 2 and 3 of the review graph (fixtures/review-v1.mjs is version 1), for the tests of threads
 * that outlive a deploy. Version 2 renames `publish` to `release`, splits `write` into `draft` → `polish`,
 * and adds two required fields (`audience`, `polished`) that its migration fills in. Version 3 removes
 * `release` (review → END) and maps nothing to where a thread paused before it continues.
 */
import { append, END, interrupt, migrateFrom, Send, START, StateGraph } from "../../../../src/index.js";
import type { Checkpointer } from "../../../../src/persistence/index.js";
import { type ReviewV1, spec as v1Spec } from "./fixtures/review-v1.spec.js";

export interface ReviewV2 extends ReviewV1 {
  audience: string;
  polished: boolean;
}

const ask = () =>
  new StateGraph<ReviewV2>({ reducers: { drafts: append, log: append } })
    .addNode("ask", (s) => ({ approved: interrupt<boolean>({ question: "publish?", drafts: s.drafts }) }))
    .addEdge(START, "ask")
    .addEdge("ask", END)
    .compile();

/** Version 1's state as version 2 reads it: everyone is the audience; drafts written by v1 count as polished. */
export const v1ToV2 = (old: ReviewV1): ReviewV2 => ({ ...old, audience: "everyone", polished: old.drafts.length > 0 });

/** A kept write of version 1 (a draft written before a sibling failed) is an update of version 2 as it is: v2 only adds fields. */
const keptV1Write = (update: Partial<ReviewV1>): Partial<ReviewV2> => update;

function builderV2() {
  return new StateGraph<ReviewV2>({ reducers: { drafts: append, log: append } })
    .addNode("plan", (s) => ({ sections: s.topic.split(" "), log: ["plan"] }))
    .addNode("draft", (input: { section: string }) => ({ drafts: [`draft ${input.section}`], log: [`write ${input.section}`] }))
    .addNode("polish", () => ({ polished: true }))
    .addNode("review", ask());
}

export function reviewV2(checkpointer?: Checkpointer) {
  return builderV2()
    .addNode("release", (s) => ({ log: [`release ${s.approved} to ${s.audience}`] }))
    .addEdge(START, "plan")
    .addConditionalEdges("plan", (s) => s.sections.map((section) => new Send("draft", { section })), ["draft"])
    .addEdge("draft", "polish")
    .addEdge("polish", "review")
    .addEdge("review", "release")
    .addEdge("release", END)
    .compile({
      version: 2,
      interruptBefore: ["draft", "release"],
      migrations: [migrateFrom(v1Spec, { from: 1, state: v1ToV2, writes: keptV1Write, nodes: { write: "draft", publish: "release" } })],
      ...(checkpointer === undefined ? {} : { checkpointer }),
    });
}

export function reviewV3() {
  const v2Spec = reviewV2().spec;
  return builderV2()
    .addEdge(START, "plan")
    .addConditionalEdges("plan", (s) => s.sections.map((section) => new Send("draft", { section })), ["draft"])
    .addEdge("draft", "polish")
    .addEdge("polish", "review")
    .addEdge("review", END)
    .compile({
      version: 3,
      interruptBefore: ["draft"],
      migrations: [
        migrateFrom(v1Spec, { from: 1, to: v2Spec, state: v1ToV2, writes: keptV1Write, nodes: { write: "draft", publish: "release" } }),
        migrateFrom(v2Spec, { from: 2 }),
      ],
    });
}

export const reviewInputV2 = (): ReviewV2 => ({
  topic: "a b",
  sections: [],
  drafts: [],
  log: [],
  approved: null,
  audience: "everyone",
  polished: false,
});
