import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import type { Checkpoint } from "../../src/engine/index.js";
import { checkpointBody } from "../../src/persistence/checkpoint-body.js";

const json = fc.jsonValue().map((v) => JSON.parse(JSON.stringify(v)) as never);
const names = fc.array(fc.string(), { maxLength: 3 });

/** Checkpoints with their members in the engine's order (engine/threads/writer.ts), the optional ones sometimes. */
const checkpoint = fc
  .record({
    id: fc.uuid(),
    parentId: fc.option(fc.uuid(), { nil: null }),
    threadId: fc.string({ minLength: 1 }),
    step: fc.nat(),
    state: fc.dictionary(fc.string(), json),
    next: names,
    tasks: fc.array(fc.record({ node: fc.string(), sent: fc.boolean() }), { maxLength: 2 }),
    trace: names,
    routes: fc.array(fc.record({ from: fc.string(), key: fc.string(), to: fc.string() }), { maxLength: 2 }),
    supersteps: fc.nat(),
    joins: fc.array(names, { maxLength: 2 }),
    createdAt: fc.string(),
    metadata: fc.record({ source: fc.constant("loop" as const), writes: names }),
    graph: fc.option(fc.record({ version: fc.nat(), hash: fc.string() }), { nil: undefined }),
    deferred: fc.option(fc.array(fc.string(), { maxLength: 2 }), { nil: undefined }),
    interrupts: fc.option(fc.array(fc.record({ id: fc.string(), node: fc.string(), value: json }), { maxLength: 2 }), { nil: undefined }),
    resumes: fc.option(fc.dictionary(fc.string(), json), { nil: undefined }),
    pendingWrites: fc.option(fc.array(fc.record({ task: fc.nat(), node: fc.string(), update: fc.dictionary(fc.string(), json) })), {
      nil: undefined,
    }),
    subgraphUpdate: fc.option(fc.dictionary(fc.string(), json), { nil: undefined }),
  })
  .map((c) => c as unknown as Checkpoint);

describe("checkpointBody", () => {
  test.prop([checkpoint])(
    "is JSON.stringify's text of the checkpoint less its pending writes (and lists), for the engine's member order",
    (c) => {
      const { pendingWrites: _writes, ...withLists } = c;
      const { trace: _trace, routes: _routes, ...withoutLists } = withLists;
      expect(checkpointBody(c, true)).toBe(JSON.stringify(withLists));
      expect(checkpointBody(c, false)).toBe(JSON.stringify(withoutLists));
    },
  );

  it("keeps a member a caller added, and the content of one whose members come in another order", () => {
    const c = { extra: [1], metadata: { source: "input", writes: [] }, id: "a", state: { x: 1 }, parentId: null, threadId: "t", step: 0 };
    const body = checkpointBody(c as unknown as Checkpoint, false);
    expect(JSON.parse(body)).toEqual(c);
  });
});
