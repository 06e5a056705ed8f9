import { describe, expect, it } from "vitest";
import { END, GraphValidationError, START, validateTopology, type GraphSpec } from "../../src/index.js";

const spec = (partial: Partial<GraphSpec>): GraphSpec => ({ nodes: [], edges: [], routes: [], reducers: [], ...partial });
const codes = (s: GraphSpec) => validateTopology(s).map((p) => `${p.code}:${p.node}`);

describe("validateTopology", () => {
  it("accepts a sound graph with a cycle that can exit", () => {
    expect(
      validateTopology(
        spec({
          nodes: ["check", "revise", "publish"],
          edges: [
            { from: START, to: "check" },
            { from: "revise", to: "check" },
            { from: "publish", to: END },
          ],
          routes: [{ from: "check", router: "r", paths: { accept: "publish", revise: "revise" } }],
        }),
      ),
    ).toEqual([]);
  });

  it.each<[string, GraphSpec, string[]]>([
    [
      "a missing START edge",
      spec({ nodes: ["a"], edges: [{ from: "a", to: END }] }),
      ["MISSING_START_EDGE:__start__", "UNREACHABLE_NODE:a"],
    ],
    [
      "an unknown destination",
      spec({
        nodes: ["a"],
        edges: [
          { from: START, to: "a" },
          { from: "a", to: "b" },
        ],
      }),
      ["UNKNOWN_NODE:b", "NO_PATH_TO_END:a"],
    ],
    [
      "an unknown source",
      spec({
        nodes: ["a"],
        edges: [
          { from: START, to: "a" },
          { from: "a", to: END },
          { from: "ghost", to: "a" },
        ],
      }),
      ["UNKNOWN_NODE:ghost"],
    ],
    [
      "END as a source",
      spec({
        nodes: ["a"],
        edges: [
          { from: START, to: "a" },
          { from: "a", to: END },
          { from: END, to: "a" },
        ],
      }),
      ["INVALID_ENDPOINT:__end__"],
    ],
    [
      "START as a destination",
      spec({
        nodes: ["a"],
        edges: [
          { from: START, to: "a" },
          { from: "a", to: START },
        ],
      }),
      ["INVALID_ENDPOINT:__start__", "NO_PATH_TO_END:a"],
    ],
    [
      "a node without an outgoing rule",
      spec({
        nodes: ["a", "b"],
        edges: [
          { from: START, to: "a" },
          { from: "a", to: "b" },
        ],
      }),
      ["NO_OUTGOING_RULE:b", "NO_PATH_TO_END:a"],
    ],
    [
      "a second rule on one source",
      spec({
        nodes: ["a", "b"],
        edges: [
          { from: START, to: "a" },
          { from: "a", to: "b" },
          { from: "a", to: END },
          { from: "b", to: END },
        ],
      }),
      ["DUPLICATE_RULE:a"],
    ],
    [
      "a fixed edge and a route on one source",
      spec({
        nodes: ["a"],
        edges: [
          { from: START, to: "a" },
          { from: "a", to: END },
        ],
        routes: [{ from: "a", router: "r", paths: { x: END } }],
      }),
      ["DUPLICATE_RULE:a"],
    ],
    [
      "a duplicate node name",
      spec({
        nodes: ["a", "a"],
        edges: [
          { from: START, to: "a" },
          { from: "a", to: END },
        ],
      }),
      ["DUPLICATE_NODE:a"],
    ],
    [
      "START as a node name",
      spec({
        nodes: [START, "a"],
        edges: [
          { from: START, to: "a" },
          { from: "a", to: END },
        ],
      }),
      ["INVALID_NODE_NAME:__start__"],
    ],
    [
      "END as a node name",
      spec({
        nodes: [END, "a"],
        edges: [
          { from: START, to: "a" },
          { from: "a", to: END },
        ],
      }),
      ["INVALID_NODE_NAME:__end__"],
    ],
    [
      "an empty node name",
      spec({
        nodes: ["", "a"],
        edges: [
          { from: START, to: "a" },
          { from: "a", to: END },
        ],
      }),
      ["INVALID_NODE_NAME:"],
    ],
    [
      "a whitespace node name",
      spec({
        nodes: ["  ", "a"],
        edges: [
          { from: START, to: "a" },
          { from: "a", to: END },
        ],
      }),
      ["INVALID_NODE_NAME:  "],
    ],
    [
      "an empty path map",
      spec({ nodes: ["a"], edges: [{ from: START, to: "a" }], routes: [{ from: "a", router: "r", paths: {} }] }),
      ["EMPTY_PATH_MAP:a", "NO_PATH_TO_END:a"],
    ],
    [
      "an empty route key",
      spec({ nodes: ["a"], edges: [{ from: START, to: "a" }], routes: [{ from: "a", router: "r", paths: { " ": END } }] }),
      ["EMPTY_ROUTE_KEY:a"],
    ],
    [
      "an unreachable node",
      spec({
        nodes: ["a", "b"],
        edges: [
          { from: START, to: "a" },
          { from: "a", to: END },
          { from: "b", to: END },
        ],
      }),
      ["UNREACHABLE_NODE:b"],
    ],
    [
      "a closed cycle",
      spec({
        nodes: ["a", "b", "c"],
        edges: [
          { from: START, to: "a" },
          { from: "a", to: "b" },
          { from: "b", to: "c" },
          { from: "c", to: "b" },
        ],
      }),
      ["NO_PATH_TO_END:a", "NO_PATH_TO_END:b", "NO_PATH_TO_END:c"],
    ],
    [
      "an empty fan-out",
      spec({ nodes: ["a"], edges: [{ from: START, to: "a" }], fanOuts: [{ from: "a", to: [] }] }),
      ["EMPTY_FAN_OUT:a", "NO_PATH_TO_END:a"],
    ],
    [
      "a fan-out naming a node twice",
      spec({
        nodes: ["a", "b"],
        edges: [
          { from: START, to: "a" },
          { from: "b", to: END },
        ],
        fanOuts: [{ from: "a", to: ["b", "b"] }],
      }),
      ["DUPLICATE_TARGET:a"],
    ],
    [
      "a fan-out to an unknown node",
      spec({ nodes: ["a"], edges: [{ from: START, to: "a" }], fanOuts: [{ from: "a", to: [END, "ghost"] }] }),
      ["UNKNOWN_NODE:ghost"],
    ],
    [
      "a join with an unknown source",
      spec({
        nodes: ["a", "b"],
        edges: [
          { from: START, to: "a" },
          { from: "b", to: END },
        ],
        joins: [{ from: ["a", "ghost"], to: "b" }],
      }),
      ["UNKNOWN_NODE:ghost"],
    ],
    [
      "START in a join",
      spec({ nodes: ["a"], edges: [{ from: "a", to: END }], joins: [{ from: [START, "a"], to: "a" }] }),
      ["INVALID_ENDPOINT:__start__", "DUPLICATE_RULE:a", "UNREACHABLE_NODE:a"],
    ],
    [
      "a join source with a second rule",
      spec({
        nodes: ["a", "b"],
        edges: [
          { from: START, to: "a" },
          { from: "a", to: END },
          { from: "b", to: END },
        ],
        joins: [{ from: ["a"], to: "b" }],
      }),
      ["DUPLICATE_RULE:a"],
    ],
    [
      "a route from an unknown source, once whatever its keys",
      spec({
        nodes: ["a"],
        edges: [
          { from: START, to: "a" },
          { from: "a", to: END },
        ],
        routes: [{ from: "ghost", router: "r", paths: { x: "a", y: "a", z: END } }],
      }),
      ["UNKNOWN_NODE:ghost"],
    ],
    [
      "an empty route from an unknown source",
      spec({
        nodes: ["a"],
        edges: [
          { from: START, to: "a" },
          { from: "a", to: END },
        ],
        routes: [{ from: "ghost", router: "r", paths: {} }],
      }),
      ["UNKNOWN_NODE:ghost", "EMPTY_PATH_MAP:ghost"],
    ],
    [
      "a reducer for an undeclared field",
      spec({
        nodes: ["a"],
        edges: [
          { from: START, to: "a" },
          { from: "a", to: END },
        ],
        reducers: [{ field: "x", reducer: "append" }],
        fields: ["y"],
      }),
      ["UNKNOWN_REDUCER_FIELD:x"],
    ],
  ])("reports %s", (_label, input, expected) => {
    expect(codes(input)).toEqual(expected);
  });

  it("says how to fix each problem, naming the node", () => {
    const [problem] = validateTopology(
      spec({
        nodes: ["a", "b"],
        edges: [
          { from: START, to: "a" },
          { from: "a", to: END },
          { from: "b", to: END },
        ],
      }),
    );
    expect(problem?.message).toBe(`Node "b" is not reachable from START. Add an edge that leads to it, or remove it.`);
  });
});

describe("validateTopology with fan-out and joins", () => {
  it("accepts a fan-out that joins again, and follows both for reachability", () => {
    expect(
      validateTopology(
        spec({
          nodes: ["plan", "web", "papers", "synthesize"],
          edges: [
            { from: START, to: "plan" },
            { from: "synthesize", to: END },
          ],
          fanOuts: [{ from: "plan", to: ["web", "papers"] }],
          joins: [{ from: ["web", "papers"], to: "synthesize" }],
        }),
      ),
    ).toEqual([]);
  });
});

describe("GraphValidationError", () => {
  it("lists every problem in its message and keeps each with its code", () => {
    const problems = validateTopology(spec({ nodes: ["a", "b"], edges: [{ from: "a", to: "zz" }] }));
    const error = new GraphValidationError(problems);
    expect(error.code).toBe("GRAPH_VALIDATION");
    expect(error.name).toBe("GraphValidationError");
    expect(error.problems).toBe(problems);
    expect(problems.length).toBeGreaterThan(2);
    for (const problem of problems) expect(error.message).toContain(problem.message);
    expect(error.message).toMatch(/^StateGraph\.compile: the graph has \d+ problems:/);
  });
});
