/**
 * The Checkpointer contract on ids (src/persistence/ids.ts): an id some store would read as another
 * (a lone UTF-16 surrogate: UTF-8 has no code for it, so SQLite and PostgreSQL stored it as U+FFFD) or
 * could not index (PostgreSQL's B-tree rows end at 2704 bytes) is refused by every method of every
 * store with INVALID_ARGUMENT before anything is read or written; the longest ids allowed work.
 * Declared by describeCheckpointerContract (contract.ts) for each store.
 */
import { randomBytes } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { InvalidOptionError } from "../../src/errors.js";
import type { Checkpointer } from "../../src/persistence/index.js";
import { MAX_CHECKPOINT_ID_BYTES, MAX_THREAD_ID_BYTES, MAX_THREAD_KEY_BYTES } from "../../src/persistence/ids.js";
import { checkpoint } from "./contract.js";

const SEPARATOR = "\u001f";

/**
 * `bytes` bytes of UTF-8 in random characters of `width` bytes each, which no store can compress
 * (PostgreSQL may compress a long index value before it measures it): the worst case of that length.
 */
function incompressible(bytes: number, width: 1 | 2 | 4 = 1): string {
  const [low, span] = width === 1 ? [0x21, 0x5e] : width === 2 ? [0x100, 0x700] : [0x10000, 0xf0000];
  const units = [...randomBytes(bytes / width)].map((byte, index) => low + ((byte * 7919 + index * 104_729) % span));
  return String.fromCodePoint(...units);
}

/** The thread ids refused, and why; each would, before, have been stored (or collided) on some store. */
export const REFUSED_THREAD_IDS: readonly (readonly [what: string, id: string, message: RegExp])[] = [
  ["a lone high surrogate", "\ud800", /lone UTF-16 surrogate \(U\+D800\)/],
  ["a lone low surrogate", "\udc00", /lone UTF-16 surrogate \(U\+DC00\)/],
  ["a cut surrogate pair", "order-\ud83d", /lone UTF-16 surrogate \(U\+D83D\)/],
  ["an id one byte too long", "x".repeat(MAX_THREAD_ID_BYTES + 1), /takes 1025 bytes of UTF-8, more than the 1024/],
  ["a 10 KB id", "x".repeat(10_240), /takes 10240 bytes/],
  ["an id of 2-byte characters one byte too long", "é".repeat(MAX_THREAD_ID_BYTES / 2) + "x", /takes 1025 bytes/],
  ["a subgraph thread too long", `t${SEPARATOR}${"n".repeat(MAX_THREAD_KEY_BYTES)}`, /subgraph thread id .* more than the 2048/],
  ["a subgraph thread whose namespace is cut", `t${SEPARATOR}node:\udfff:0`, /lone UTF-16 surrogate \(U\+DFFF\)/],
];

/** Declares the id tests for one store (see describeCheckpointerContract). */
export function describeIdContract<C extends Checkpointer>(
  name: string,
  makeCheckpointer: () => C | Promise<C>,
  cleanup: (checkpointer: C) => void | Promise<void>,
): void {
  describe(`${name}: ids every store can key by`, () => {
    let store: C;
    beforeEach(async () => {
      store = await makeCheckpointer();
    });
    afterEach(async () => {
      await cleanup(store);
    });

    /** Each method given `threadId` (and a fine checkpoint id), as the store's callers would. */
    const calls = (threadId: string): [string, () => Promise<unknown>][] => [
      ["save", () => store.save(checkpoint({ threadId }), null)],
      ["saveMany", async () => store.saveMany?.([checkpoint({ threadId, id: "m1" }), checkpoint({ threadId, parentId: "m1" })], null)],
      ["latest", () => store.latest(threadId)],
      ["get", () => store.get(threadId, "cp-1")],
      ["list", () => store.list(threadId)],
      ["putWrites", () => store.putWrites(threadId, "cp-1", [{ task: 0, node: "work", update: {} }])],
      ["deleteThread", () => store.deleteThread(threadId)],
      ["prune", async () => store.prune?.(threadId, { keepLast: 1 })],
    ];

    describe.each(REFUSED_THREAD_IDS)("a thread id with %s", (_what, threadId, message) => {
      it.each(calls(threadId).map(([method]) => method))(
        "is refused by %s with INVALID_ARGUMENT, leaving the thread U+FFFD and every other untouched",
        async (method) => {
          const healthy = checkpoint({ threadId: "\ufffd" });
          await store.save(healthy, null);
          const call = calls(threadId).find(([m]) => m === method)?.[1];
          if (method === "saveMany" && store.saveMany === undefined) return;
          if (method === "prune" && store.prune === undefined) return;
          const error = (await call?.().catch((e: unknown) => e)) as Error;
          expect(error).toBeInstanceOf(InvalidOptionError);
          expect(error).toMatchObject({ code: "INVALID_ARGUMENT" });
          expect(error.message).toMatch(new RegExp(`^\\w+Checkpointer\\.${method}: `));
          expect(error.message).toMatch(message);
          expect(await store.list("\ufffd")).toEqual([healthy]);
        },
      );
    });

    it.each([
      ["a lone surrogate", "\ud800", /lone UTF-16 surrogate/],
      ["an id one byte too long", "c".repeat(MAX_CHECKPOINT_ID_BYTES + 1), /takes 257 bytes of UTF-8, more than the 256/],
    ])("a checkpoint id with %s is refused as a saved id, a parent id, and by get and putWrites", async (_what, id, message) => {
      const healthy = checkpoint({ id: "\ufffd" });
      await store.save(healthy, null);
      const attempts: (() => Promise<unknown>)[] = [
        () => store.save(checkpoint({ id }), "\ufffd"),
        () => store.save(checkpoint({ parentId: id }), "\ufffd"),
        () => store.get("t1", id),
        () => store.putWrites("t1", id, [{ task: 0, node: "work", update: {} }]),
      ];
      for (const attempt of attempts) {
        const error = await attempt().catch((e: unknown) => e);
        expect(error).toMatchObject({ code: "INVALID_ARGUMENT", message: expect.stringMatching(message) });
      }
      expect(await store.list("t1")).toEqual([healthy]);
    });

    it.each([
      ["ASCII", incompressible(MAX_THREAD_ID_BYTES)],
      ["2-byte characters", incompressible(MAX_THREAD_ID_BYTES, 2)],
      ["4-byte characters (surrogate pairs)", incompressible(MAX_THREAD_ID_BYTES, 4)],
    ])("keeps a thread id of the longest length allowed, in %s, with the longest checkpoint ids", async (_what, threadId) => {
      expect(Buffer.byteLength(threadId)).toBe(MAX_THREAD_ID_BYTES);
      const first = checkpoint({ threadId, id: incompressible(MAX_CHECKPOINT_ID_BYTES) });
      const second = checkpoint({ threadId, id: incompressible(MAX_CHECKPOINT_ID_BYTES), parentId: first.id });
      await store.save(first, null);
      await store.save(second, first.id);
      await store.putWrites(threadId, second.id, [{ task: 0, node: "work", update: { n: 1 } }]);
      expect(await store.get(threadId, first.id)).toEqual(first);
      expect((await store.list(threadId)).map((c) => c.id)).toEqual([second.id, first.id]);
      // A subgraph's thread under it, as long as allowed: its user id and namespaces together.
      const child = `${threadId}${SEPARATOR}${incompressible(MAX_THREAD_KEY_BYTES - MAX_THREAD_ID_BYTES - 1)}`;
      expect(Buffer.byteLength(child)).toBe(MAX_THREAD_KEY_BYTES);
      const inChild = checkpoint({ threadId: child, id: incompressible(MAX_CHECKPOINT_ID_BYTES) });
      await store.save(inChild, null);
      expect(await store.latest(child)).toEqual(inChild);
      await store.deleteThread(threadId);
      expect([await store.latest(threadId), await store.latest(child)]).toEqual([undefined, undefined]);
    });
  });
}
