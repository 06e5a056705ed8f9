/**
 * Every member a stored checkpoint may hold, with the store schema from which each store writes it: a
 * new member of `Checkpoint` does not compile here until it is listed (`satisfies`, checked by the type
 * tests' project check), and a member listed with a schema the stores do not have yet fails below. So a
 * change of the stored format cannot land without the schema bump that makes an older release refuse the
 * store (src/persistence/sqlite/schema.ts and src/postgres/schema.ts list what each version introduced).
 */
import { describe, expect, it } from "vitest";
import type { Checkpoint } from "../../src/persistence/index.js";
import { SQLITE_SCHEMA_VERSION } from "../../src/persistence/index.js";
import { POSTGRES_SCHEMA_VERSION } from "../../src/postgres/index.js";

/** The first schema of each store that may hold the member. Members older than graph stamps say 6 and 1: stored by then at the latest. */
interface Since {
  readonly sqlite: number;
  readonly postgres: number;
}
const BEFORE_STAMPS: Since = { sqlite: 6, postgres: 1 };

const CHECKPOINT_MEMBERS = {
  id: BEFORE_STAMPS,
  parentId: BEFORE_STAMPS,
  threadId: BEFORE_STAMPS,
  step: BEFORE_STAMPS,
  state: BEFORE_STAMPS,
  next: BEFORE_STAMPS,
  tasks: BEFORE_STAMPS,
  trace: BEFORE_STAMPS,
  routes: BEFORE_STAMPS,
  supersteps: BEFORE_STAMPS,
  joins: BEFORE_STAMPS,
  createdAt: BEFORE_STAMPS,
  metadata: BEFORE_STAMPS,
  pendingWrites: BEFORE_STAMPS,
  interrupts: BEFORE_STAMPS,
  resumes: BEFORE_STAMPS,
  subgraphUpdate: BEFORE_STAMPS,
  graph: { sqlite: 7, postgres: 2 },
  deferred: { sqlite: 8, postgres: 3 },
} as const satisfies Record<keyof Checkpoint, Since>;

/** Shapes inside a member that an older release would misread, though the member itself is older. */
const INNER_SHAPES: Record<string, Since> = {
  "a failed task's pending write, update: { __tsg_error__: … }": { sqlite: 8, postgres: 3 },
};

describe("the stored checkpoint format", () => {
  it.each(Object.entries({ ...CHECKPOINT_MEMBERS, ...INNER_SHAPES }))("%s is written only by a schema that has it", (_member, since) => {
    expect(SQLITE_SCHEMA_VERSION).toBeGreaterThanOrEqual(since.sqlite);
    expect(POSTGRES_SCHEMA_VERSION).toBeGreaterThanOrEqual(since.postgres);
  });
});
