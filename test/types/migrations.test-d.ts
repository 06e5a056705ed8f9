/**
 * Migrations typed against both graphs (issue 42 §2): `migrateFrom(oldSpec, { nodes })` takes only the
 * old spec's node names as keys (the spec module is `as const`), and `compile({ migrations })` takes
 * only maps into the graph's own nodes and state migrations that return its state.
 */
import { describe, expectTypeOf, it } from "vitest";
import { END, type GraphMigration, migrateFrom, START, StateGraph } from "../../src/index.js";

const v1 = { nodes: ["plan", "write", "publish"] } as const;
interface V1 {
  topic: string;
}
interface V2 extends V1 {
  audience: string;
}

const v2 = () =>
  new StateGraph<V2>()
    .addNode("plan", () => ({}))
    .addNode("draft", () => ({}))
    .addNode("release", () => ({}))
    .addEdge(START, "plan")
    .addEdge("plan", "draft")
    .addEdge("draft", "release")
    .addEdge("release", END);

describe("migrateFrom", () => {
  it("infers the map's targets and the state it produces", () => {
    const migration = migrateFrom(v1, {
      from: 1,
      state: (old: V1) => ({ ...old, audience: "all" }),
      nodes: { write: "draft", publish: "release" },
    });
    expectTypeOf(migration).toEqualTypeOf<GraphMigration<{ audience: string; topic: string }, "draft" | "release">>();
    v2().compile({ version: 2, migrations: [migration] });
  });

  it("refuses a key that is not a node of the old graph", () => {
    // @ts-expect-error "draft" is not a node of version 1
    migrateFrom(v1, { from: 1, nodes: { draft: "release" } });
    // @ts-expect-error the same, beside a key that is
    migrateFrom(v1, { from: 1, nodes: { write: "draft", draft: "release" } });
  });

  it("refuses a migration whose targets are not nodes of the new graph", () => {
    const migration = migrateFrom(v1, { from: 1, nodes: { publish: "publish" } });
    // @ts-expect-error "publish" is not a node of version 2
    v2().compile({ version: 2, migrations: [migration] });
    // @ts-expect-error the same, written inline
    v2().compile({ version: 2, migrations: [migrateFrom(v1, { from: 1, nodes: { write: "nope" } })] });
  });

  it("refuses a state migration that does not return the new state", () => {
    // @ts-expect-error audience is missing from what the migration returns
    v2().compile({ version: 2, migrations: [migrateFrom(v1, { from: 1, state: (old: V1) => ({ ...old }) })] });
  });

  it("types a middle version's map against its spec (to)", () => {
    const middle = { nodes: ["plan", "draft", "release"] } as const;
    migrateFrom(v1, { from: 1, to: middle, nodes: { write: "draft" } });
    // @ts-expect-error "write" is not a node of the middle version
    migrateFrom(v1, { from: 1, to: middle, nodes: { publish: "write" } });
  });

  it("types a kept write's migration from the old state's update to the new state's, with the old node's name", () => {
    migrateFrom(v1, {
      from: 1,
      state: (old: V1) => ({ ...old, audience: "all" }),
      writes: (update, node) => {
        expectTypeOf(update).toEqualTypeOf<Partial<V1>>();
        expectTypeOf(node).toEqualTypeOf<"plan" | "write" | "publish">();
        return { ...update, audience: "all" };
      },
    });
    migrateFrom(v1, {
      from: 1,
      state: (old: V1) => ({ ...old, audience: "all" }),
      // @ts-expect-error audience is a string in the new state
      writes: () => ({ audience: 1 }),
    });
  });
});
