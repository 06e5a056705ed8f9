/** assertResumable / checkResumable: the old version's resume points the new graph cannot take, and changed state fields. */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { exampleSpec } from "../../src/cli/graph-source.js";
import { GRAPH_BRAND, graphBrandOf } from "../../src/engine/index.js";
import { CompiledGraph, END, InvalidOptionError, START, stateGraph, type GraphSpec } from "../../src/index.js";
import { assertResumable, checkResumable, ResumabilityError, resumePoints } from "../../src/testing/index.js";
import { renameNode } from "./_specs.js";
import { spec as v1Spec } from "../engine/threads/versions/fixtures/review-v1.spec.js";
import { reviewV2, reviewV3 } from "../engine/threads/versions/review-versions.js";

const report = exampleSpec("report");
const research = exampleSpec("research");
const points = (old: GraphSpec, now: GraphSpec, nodes?: Record<string, string>) =>
  checkResumable(old, now, nodes === undefined ? {} : { nodes }).problems.map((problem) => problem.point);

describe("checkResumable", () => {
  it("finds nothing to declare between a spec and itself", () => {
    expect(checkResumable(report, report).problems).toEqual([]);
    expect(checkResumable(research, research).problems).toEqual([]);
  });

  it("after a rename without a map: exactly the points of that node, each saying what to declare", () => {
    const renamed = renameNode(report, "publish", "release");
    expect(points(report, renamed)).toEqual(["before:publish", "interrupt:publish", "after:publish"]);
    expect(checkResumable(report, renamed).problems[0]).toEqual({
      point: "before:publish",
      kind: "before",
      reason: 'node "publish" is not in the new graph',
      fix: 'map it to the node that takes over: nodes: { "publish": "<new node>" } (the new graph\'s nodes there: "collect", "write_draft", "check_draft", "revise_draft", "release", "hold")',
    });
  });

  it("with the map, nothing; with a map to a node the new graph lacks, the points again", () => {
    const renamed = renameNode(report, "publish", "release");
    expect(points(report, renamed, { publish: "release" })).toEqual([]);
    const wrong = checkResumable(report, renamed, { nodes: { publish: "relase" } }).problems;
    expect(wrong.map((problem) => problem.point)).toEqual(["before:publish", "interrupt:publish", "after:publish"]);
    expect(wrong[0]?.reason).toBe('node "publish" is mapped to "relase", which the new graph does not have');
  });

  it("a removed node mapped to where a paused thread continues is resumable", () => {
    const removed: GraphSpec = {
      ...report,
      nodes: report.nodes.filter((node) => node !== "hold"),
      edges: report.edges.filter((edge) => edge.from !== "hold"),
      routes: report.routes.map((route) => ({ ...route, paths: { accept: "publish", revise: "revise_draft", hold: END } })),
    };
    expect(points(report, removed)).toEqual(["before:hold", "interrupt:hold", "after:hold"]);
    expect(points(report, removed, { hold: "publish" })).toEqual([]);
  });

  it("a join whose sources changed cannot be taken; its renamed sources, mapped, can", () => {
    const fewer: GraphSpec = { ...research, joins: [{ from: ["web", "papers"], to: "synthesize" }] };
    const [problem] = checkResumable(research, fewer).problems;
    expect(problem).toMatchObject({ point: "join:synthesize", kind: "join" });
    expect(problem?.reason).toBe(
      'the old graph joins ["web", "papers", "internal"] into "synthesize", and the new graph joins ["web", "papers"] into it: a thread waiting there keeps the arrivals of the old sources',
    );
    const none: GraphSpec = { ...research, joins: [] };
    expect(checkResumable(research, none).problems[0]?.reason).toContain('the new graph has no join into "synthesize"');
    const renamed = renameNode(research, "web", "search_web");
    expect(points(research, renamed)).toEqual(["before:web", "interrupt:web", "after:web", "join:synthesize"]);
    expect(points(research, renamed, { web: "search_web" })).toEqual([]);
  });

  it("a join into END is taken by a graph with the same join (END is no node, yet always there)", () => {
    const spec: GraphSpec = {
      nodes: ["a", "b"],
      edges: [],
      routes: [],
      fanOuts: [{ from: START, to: ["a", "b"] }],
      joins: [{ from: ["a", "b"], to: END }],
      reducers: [],
    };
    expect(points(spec, spec)).toEqual([]);
  });

  it("a Send target gone is a send point", () => {
    const old: GraphSpec = {
      nodes: ["plan", "worker"],
      edges: [
        { from: START, to: "plan" },
        { from: "worker", to: END },
      ],
      routes: [{ from: "plan", router: "fan", paths: { worker: "worker" }, sends: true }],
      reducers: [],
    };
    expect(points(old, renameNode(old, "worker", "summarize"))).toEqual([
      "before:worker",
      "interrupt:worker",
      "after:worker",
      "send:worker",
    ]);
  });

  it("inside a subgraph: the child's points under the parent's name, mapped by their path", () => {
    const child = research.subgraphs?.["papers"] as GraphSpec;
    const renamedChild: GraphSpec = { ...research, subgraphs: { papers: renameNode(child, "rank", "score") } };
    expect(points(research, renamedChild)).toEqual(["before:papers/rank", "interrupt:papers/rank", "after:papers/rank"]);
    expect(points(research, renamedChild, { "papers/rank": "score" })).toEqual([]);
    const renamedParent = renameNode(research, "papers", "literature");
    expect(points(research, renamedParent, { papers: "literature" })).toEqual([]);
    const flattened: GraphSpec = { ...research, subgraphs: {} };
    const problems = checkResumable(research, flattened).problems;
    const inside = resumePoints(research).filter((point) => point.path[0] === "papers" && point.path.length > 1);
    expect(inside).toHaveLength(6);
    expect(problems.map((problem) => problem.point)).toEqual(inside.map((point) => point.id));
    expect(problems[0]?.reason).toBe(
      '"papers" is not a subgraph node in the new graph, and a thread paused inside it waits in its child graph',
    );
  });

  it("refuses a map key that names no node of the old version, and a version that is not a graph", () => {
    expect(() => checkResumable(report, report, { nodes: { publsh: "release" } })).toThrow(InvalidOptionError);
    expect(() => checkResumable(report, report, { nodes: { publsh: "release" } })).toThrow(
      /options\.nodes names "publsh", which the old version does not have/,
    );
    expect(() => checkResumable(null as never, report)).toThrow(/^assertResumable: the old version must be a compiled graph, a GraphSpec/);
  });
});

describe("state fields", () => {
  const graphOf = (schema: z.ZodObject<Record<string, z.ZodType>>) =>
    stateGraph(schema)()
      .addNode("settle", () => ({}))
      .addEdge(START, "settle")
      .addEdge("settle", END)
      .compile();
  const v1 = graphOf(z.object({ amount: z.number(), note: z.string(), resolved: z.boolean() }));

  it("with both schemas: a changed type, a removed field, a new required field", () => {
    const v2 = graphOf(z.object({ amount: z.string(), resolved: z.boolean(), owner: z.string(), tag: z.string().optional() }));
    const found = checkResumable(v1, v2);
    expect(found.stateFields).toBe("schemas");
    expect(found.note).toBeUndefined();
    expect(found.problems.map((problem) => `${problem.point}: ${problem.reason}; ${problem.fix}`)).toEqual([
      'field:amount: the type of "amount" changed: {"type":"number"} → {"type":"string"}; declare a state migration that converts "amount"',
      'field:note: "note" is no longer a field: an old thread\'s state still holds it; declare a state migration that drops (or moves) "note"',
      'field:owner: "owner" is a new required field: an old thread\'s state lacks it; declare a state migration that sets "owner"',
    ]);
    expect(checkResumable(v1, v2, { stateMigrated: true }).problems).toEqual([]);
    expect(checkResumable(v1, graphOf(z.object({ resolved: z.boolean(), note: z.string(), amount: z.number() }))).problems).toEqual([]);
  });

  it("from a module's { spec, stateSchema }, as tsg check --emit-spec writes it", () => {
    const emitted = { spec: v1.spec, stateSchema: { type: "object", properties: { amount: { type: "string" } } } };
    expect(checkResumable(emitted, v1).problems.map((problem) => problem.point)).toEqual(["field:amount", "field:note", "field:resolved"]);
  });

  it("without schemas: says fields cannot be compared; with field names on both, reports removed ones", () => {
    const found = checkResumable(report, report);
    expect(found.stateFields).toBe("field names");
    expect(found.note).toBe(
      "state field types cannot be compared: neither version has a state JSON Schema (declare the state with a schema, e.g. stateGraph(z.object({ … })))",
    );
    const fewer = { ...report, fields: (report.fields ?? []).filter((field) => field !== "events") };
    expect(points(report, fewer)).toEqual(["field:events"]);
    const unnamed: GraphSpec = { nodes: report.nodes, edges: report.edges, routes: report.routes, reducers: [] };
    expect(checkResumable(report, unnamed).stateFields).toBe("none");
    expect(checkResumable(v1, report).note).toMatch(/^state field types cannot be compared: the new version has no state JSON Schema/);
  });
});

describe("assertResumable", () => {
  it("passes when every point can be taken", () => {
    expect(() => assertResumable(report, renameNode(report, "publish", "release"), { nodes: { publish: "release" } })).not.toThrow();
  });

  it("throws NOT_RESUMABLE listing every point with what to declare, and the fields note", () => {
    let thrown: unknown;
    try {
      assertResumable(report, renameNode(report, "publish", "release"));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ResumabilityError);
    const error = thrown as ResumabilityError;
    expect(error.code).toBe("NOT_RESUMABLE");
    expect(error.problems).toHaveLength(3);
    const lines = error.message.split("\n");
    expect(lines[0]).toBe("assertResumable: 3 resume points (or state fields) of the old version cannot continue on the new graph:");
    expect(lines[1]).toMatch(
      /^ {2}- before:publish: node "publish" is not in the new graph; map it to the node that takes over: nodes: \{ "publish": "<new node>" \}/,
    );
    expect(lines.at(-1)).toMatch(/^\(state field types cannot be compared: neither version has a state JSON Schema/);
  });
});

describe("checkResumable reads the migrations a compiled graph declares", () => {
  const v1: GraphSpec = v1Spec;

  it("uses the declared node map (write → draft, publish → release) and state migration when no options are given", () => {
    expect(checkResumable(v1, reviewV2()).problems).toEqual([]);
    // An explicit map replaces the declared one: with none, the renamed and split nodes' points are listed.
    expect(points(v1, reviewV2().spec, {})).toEqual(expect.arrayContaining(["before:write", "before:publish"]));
    expect(checkResumable(v1, reviewV2(), { nodes: {} }).problems.map((problem) => problem.point)).toEqual(
      expect.arrayContaining(["before:write", "before:publish"]),
    );
  });

  it("follows a chain of migrations (v1 → v2 → v3): a node v3 removed without a mapping is listed", () => {
    const listed = checkResumable(v1, reviewV3()).problems.map((problem) => problem.point);
    expect(listed).toEqual(["before:publish", "interrupt:publish", "after:publish"]);
  });
});

describe("checkResumable reads a graph compiled by another copy of the library (its brand, not instanceof)", () => {
  // What a module's graph looks like to tsg's copy: another class, the brand under the registered symbol.
  const lookalike = (graph: object) => ({ spec: reviewV2().spec, [GRAPH_BRAND]: graphBrandOf(graph) });

  it("finds its declared migrations", () => {
    const other = lookalike(reviewV2());
    expect(other).not.toBeInstanceOf(CompiledGraph);
    expect(checkResumable(v1Spec, other).problems).toEqual([]);
  });
});
