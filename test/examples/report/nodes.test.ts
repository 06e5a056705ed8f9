import { describe, expect, it } from "vitest";
import {
  buildReportGraph,
  createReportNodes,
  DRAFT_STYLES,
  initialReportState,
  readTeachingRecord,
  type City,
  type ReportNodeName,
  type ReportNodeOptions,
  type ReportState,
} from "../../../src/examples/report/index.js";
import { InvalidOptionError } from "../../../src/index.js";

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
    Object.freeze(value);
  }
  return value;
}

/** Every (node, input state) pair of a run, the input being the state the node was given. */
async function nodeInputs(options: ReportNodeOptions): Promise<{ node: ReportNodeName; input: ReportState }[]> {
  let input = initialReportState();
  const pairs: { node: ReportNodeName; input: ReportState }[] = [];
  for await (const step of buildReportGraph(options).stream(input, { maxSteps: 30 })) {
    pairs.push({ node: step.node as ReportNodeName, input });
    input = step.state;
  }
  return pairs;
}

describe("no node mutates its input", () => {
  const styles = DRAFT_STYLES.map((draftStyle) => ({ draftStyle, maxRevisions: 2 }));

  it.each(styles)("every node and the router leave a frozen input intact ($draftStyle)", async (options) => {
    const nodes = createReportNodes(options);
    const pairs = await nodeInputs(options);
    expect(pairs.map((p) => p.node)).toContain("check_draft");
    for (const { node, input } of pairs) {
      const before = structuredClone(input);
      const frozen = deepFreeze(structuredClone(input));
      // A write to a frozen object throws in strict mode (ES modules), so a mutating node fails here.
      await nodes[node](frozen);
      // The inputs of revise_draft, publish and hold are checked states: the router reads those.
      if (frozen.review !== null) nodes.routeAfterCheck(frozen);
      expect(frozen).toStrictEqual(before);
    }
  });

  it("the review keeps its own copy of the checked draft", async () => {
    const nodes = createReportNodes();
    const pairs = await nodeInputs({});
    const checkInput = pairs.find((p) => p.node === "check_draft")?.input;
    expect(checkInput).toBeDefined();
    const input = checkInput as ReportState;
    const update = nodes.check_draft(input);
    expect(update.review?.checkedDraft).toStrictEqual(input.draft);
    expect(update.review?.checkedDraft).not.toBe(input.draft);
  });
});

describe("collect", () => {
  it("reads each requested city once, in request order", async () => {
    const reads: City[] = [];
    const nodes = createReportNodes({ reader: (city) => (reads.push(city), readTeachingRecord(city)) });
    const update = await nodes.collect(initialReportState({ cities: ["Paris", "Tokyo"] }));
    expect(reads).toEqual(["Paris", "Tokyo"]);
    expect(update.readings?.map((r) => r.city)).toEqual(["Paris", "Tokyo"]);
    expect(update.events).toEqual(["collected requested records"]);
  });

  it("rejects a record for a city other than the one asked for", async () => {
    const nodes = createReportNodes({ reader: () => readTeachingRecord("Paris") });
    await expect(nodes.collect(initialReportState({ cities: ["Tokyo"] }))).rejects.toThrow(
      /^collect: the record for "Tokyo" names the city "Paris"/,
    );
  });
});

describe("write_draft", () => {
  it("refuses to draft before the readings are collected", () => {
    expect(() => createReportNodes().write_draft(initialReportState())).toThrow(
      /^write_draft: the readings do not cover the requested cities/,
    );
  });
});

describe("createReportNodes options", () => {
  it.each<[string, unknown, RegExp]>([
    ["an unknown draft style", { draftStyle: "lazy" }, /draftStyle must be one of missing-notice, complete, stubborn; got "lazy"/],
    ["a negative maxRevisions", { maxRevisions: -1 }, /maxRevisions must be a non-negative integer; got number -1/],
    ["a fractional maxRevisions", { maxRevisions: 1.5 }, /maxRevisions must be a non-negative integer/],
    ["a string maxRevisions", { maxRevisions: "2" }, /maxRevisions must be a non-negative integer; got "2"/],
    ["an infinite maxRevisions", { maxRevisions: Number.POSITIVE_INFINITY }, /maxRevisions must be a non-negative integer/],
    ["a reader that is not a function", { reader: "teaching" }, /reader must be a function/],
    ["a misspelled option", { maxRevision: 2 }, /unknown option "maxRevision"/],
    ["a non-object", 3, /options must be an object/],
  ])("rejects %s with InvalidOptionError", (_label, options, message) => {
    const attempt = () => createReportNodes(options as ReportNodeOptions);
    expect(attempt).toThrow(InvalidOptionError);
    expect(attempt).toThrow(message);
    expect(attempt).toThrow(/^createReportNodes: /);
  });

  it("rejects bad options when the graph is built, before any run", () => {
    expect(() => buildReportGraph({ maxRevisions: -1 })).toThrow(InvalidOptionError);
  });

  it("defaults to missing-notice with one revision", async () => {
    const { trace } = await buildReportGraph().invoke(initialReportState());
    expect(trace.filter((node) => node === "revise_draft")).toHaveLength(1);
  });
});
