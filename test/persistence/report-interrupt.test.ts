/**
 * Human in the loop on the report workflow: `interruptBefore: ["publish"]`. A person reads the checked
 * draft, then approves it, or edits it, which sends it back through check_draft: the old review never
 * approves an edited draft.
 */
import { describe, expect, it } from "vitest";
import { buildReportGraph, initialReportState, NOTICES, type ReportState } from "../../src/examples/report/index.js";
import { MemoryCheckpointer } from "../../src/persistence/index.js";

const EN_NOTICE = NOTICES.en;

async function pausedBeforePublish(options: Parameters<typeof buildReportGraph>[0] = {}) {
  const checkpointer = new MemoryCheckpointer();
  const graph = buildReportGraph(options, { interruptBefore: ["publish"] });
  const paused = await graph.invoke(initialReportState(), { threadId: "brief", checkpointer, maxSteps: 30 });
  return { graph, checkpointer, paused };
}

/** The edit recipe of docs/persistence.md: the edited draft is written as if revise_draft wrote it, so check_draft runs next. */
async function editNotice(graph: ReturnType<typeof buildReportGraph>, checkpointer: MemoryCheckpointer, notice: string) {
  const current = await graph.getState("brief", { checkpointer });
  const draft = current?.state.draft;
  if (!draft) throw new Error("no draft to edit");
  const update: Partial<ReportState> = { draft: { ...draft, notice }, review: null, events: ["edited notice by hand"] };
  return graph.updateState("brief", update, { asNode: "revise_draft", checkpointer });
}

describe("the report workflow paused before publish", () => {
  it("pauses with the checked, accepted draft saved, naming publish", async () => {
    const { paused, checkpointer } = await pausedBeforePublish();
    expect(paused).toMatchObject({ status: "interrupted", interrupt: { when: "before", nodes: ["publish"] }, next: ["publish"] });
    expect(paused.trace).toEqual(["collect", "write_draft", "check_draft", "revise_draft", "check_draft"]);
    expect(paused.state.review?.passed).toBe(true);
    expect(paused.state.answer).toBeNull();
    expect((await checkpointer.latest("brief"))?.id).toBe(paused.checkpointId);
  });

  it("approving (resuming) publishes, and the result equals an uninterrupted run", async () => {
    const { graph, checkpointer } = await pausedBeforePublish();
    const approved = await graph.invoke(null, { threadId: "brief", checkpointer, maxSteps: 30 });
    const uninterrupted = await buildReportGraph().invoke(initialReportState(), { maxSteps: 30 });
    expect(approved.status).toBe("done");
    expect(approved.steps.map((s) => s.node)).toEqual(["publish"]);
    expect([approved.state, approved.trace]).toEqual([uninterrupted.state, uninterrupted.trace]);
  });

  it("an edit goes back through check_draft, which rejects a wrong notice; revise_draft fixes it and the run pauses again", async () => {
    const { graph, checkpointer } = await pausedBeforePublish({ draftStyle: "complete" });
    const edited = await editNotice(graph, checkpointer, "Live weather, trust me.");
    expect(edited.next).toEqual(["check_draft"]);
    const afterEdit = await graph.invoke(null, { threadId: "brief", checkpointer, maxSteps: 30 });
    expect(afterEdit.steps.map((s) => s.node)).toEqual(["check_draft", "revise_draft", "check_draft"]);
    expect(afterEdit.state.events).toContain("checked draft: missing_fixed_data_notice");
    expect(afterEdit).toMatchObject({ status: "interrupted", next: ["publish"] });
    const published = await graph.invoke(null, { threadId: "brief", checkpointer, maxSteps: 30 });
    expect(published.state).toMatchObject({ status: "completed" });
    expect(published.state.answer).toContain(EN_NOTICE);
  });

  it("an edit that the check accepts pauses before publish again, for a second look", async () => {
    const { graph, checkpointer } = await pausedBeforePublish();
    await editNotice(graph, checkpointer, EN_NOTICE);
    const afterEdit = await graph.invoke(null, { threadId: "brief", checkpointer, maxSteps: 30 });
    expect(afterEdit.steps.map((s) => s.node)).toEqual(["check_draft"]);
    expect(afterEdit).toMatchObject({ status: "interrupted", interrupt: { nodes: ["publish"] } });
    expect(afterEdit.state.review?.checkedDraft).toEqual(afterEdit.state.draft);
  });

  it("with no revision left, a rejected edit is held, never published", async () => {
    const { graph, checkpointer } = await pausedBeforePublish();
    await editNotice(graph, checkpointer, "");
    const afterEdit = await graph.invoke(null, { threadId: "brief", checkpointer, maxSteps: 30 });
    expect(afterEdit.steps.map((s) => s.node)).toEqual(["check_draft", "hold"]);
    expect(afterEdit.state).toMatchObject({ status: "needs_attention", answer: null });
  });

  it("the old review does not approve an edited draft: an edit without asNode counts as check_draft, whose router refuses it", async () => {
    const { graph, checkpointer, paused } = await pausedBeforePublish();
    const draft = paused.state.draft;
    if (!draft) throw new Error("no draft");
    // Without asNode the update counts as check_draft, the node that ran last: its router reads the edited
    // draft beside the old review and refuses to route, so nothing is saved and publish never runs.
    await expect(graph.updateState("brief", { draft: { ...draft, notice: "edited" } }, { checkpointer })).rejects.toMatchObject({
      code: "ROUTER_FAILED",
      node: "check_draft",
      message: expect.stringContaining("the review is of a different draft than the current one"),
    });
    expect((await checkpointer.latest("brief"))?.id).toBe(paused.checkpointId);
  });
});
