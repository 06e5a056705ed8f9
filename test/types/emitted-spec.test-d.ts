/**
 * A spec written by `tsg check --emit-spec` keeps the old graph's names as literal types: the code of a
 * newer version imports them (a JSON spec would widen them to string).
 */
import { describe, expectTypeOf, it } from "vitest";
import oldReport, { spec, stateSchema } from "./fixtures/report.spec.js";

type OldNode = (typeof spec.nodes)[number];

describe("an emitted spec module", () => {
  it("types the node names as the union of their literals", () => {
    expectTypeOf<OldNode>().toEqualTypeOf<"collect" | "write_draft" | "check_draft" | "revise_draft" | "publish" | "hold">();
    expectTypeOf(oldReport).toEqualTypeOf(spec);
  });

  it("types route keys and destinations as literals too", () => {
    expectTypeOf(spec.routes[0].paths).toEqualTypeOf<{ readonly accept: "publish"; readonly revise: "revise_draft"; readonly hold: "hold" }>();
  });

  it("lets a node map be checked against the old names", () => {
    const renamed: Partial<Record<OldNode, string>> = { publish: "release" };
    expectTypeOf(renamed).toMatchTypeOf<Partial<Record<OldNode, string>>>();
    // @ts-expect-error - "publsh" is not a node of the old graph
    const typo: Partial<Record<OldNode, string>> = { publsh: "release" };
    void typo;
  });

  it("types a graph without a state schema's stateSchema as null", () => {
    expectTypeOf(stateSchema).toEqualTypeOf<null>();
  });
});
