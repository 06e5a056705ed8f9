/**
 * assertResumable's two laws over generated specs (parallel ones included: fan-outs, joins, sends): a
 * spec compared with itself has no unresumable point; renaming one node without a map yields exactly
 * the resume points of that node (and of the joins it is part of), and none with the map.
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import { arbitraryGraphSpec, checkResumable, resumePoints } from "../../src/testing/index.js";
import { renameNode } from "../testing/_specs.js";
import { propertyParams } from "./arbitraries.js";

const specs = fc.oneof(
  arbitraryGraphSpec({ kind: "valid", minNodes: 1, maxNodes: 8 }),
  arbitraryGraphSpec({ kind: "valid", minNodes: 1, maxNodes: 8, parallel: true }),
);

describe("checkResumable", () => {
  test.prop([specs], propertyParams(100))("a spec compared with itself has no unresumable point", (spec) => {
    expect(checkResumable(spec, spec).problems).toEqual([]);
  });

  test.prop([specs.chain((spec) => fc.tuple(fc.constant(spec), fc.constantFrom(...spec.nodes)))], propertyParams(100))(
    "renaming a node without a map yields exactly that node's points; with the map, none",
    ([spec, node]) => {
      const fresh = `${node}_v2`;
      fc.pre(!spec.nodes.includes(fresh));
      const renamed = renameNode(spec, node, fresh);
      const expected = resumePoints(spec)
        .filter((point) => point.path[0] === node || (point.sources ?? []).includes(node))
        .map((point) => point.id);
      expect(checkResumable(spec, renamed).problems.map((problem) => problem.point)).toEqual(expected);
      expect(checkResumable(spec, renamed, { nodes: { [node]: fresh } }).problems).toEqual([]);
    },
  );
});
