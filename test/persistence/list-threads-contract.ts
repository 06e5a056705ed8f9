/**
 * The optional `Checkpointer.listThreads`, the same on every store that has it: the top-level threads
 * (a subgraph's own thread left out), each once, sorted by UTF-8 bytes.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Checkpointer } from "../../src/persistence/index.js";
import { checkpoint, saveChain } from "./contract.js";

/** Declares the listing's tests for one store, as `describeCheckpointerContract` does for the rest. */
export function describeListThreads<C extends Checkpointer>(
  name: string,
  makeCheckpointer: () => C | Promise<C>,
  cleanup: (checkpointer: C) => void | Promise<void> = () => undefined,
): void {
  describe(`${name}: listThreads`, () => {
    let store: C;
    beforeEach(async () => {
      store = await makeCheckpointer();
    });
    afterEach(async () => {
      await cleanup(store);
    });

    it("lists nothing for an empty store", async () => {
      expect(await store.listThreads?.()).toEqual([]);
    });

    it("lists each top-level thread once, in UTF-8 byte order, without a subgraph's own thread; a deleted thread is gone", async () => {
      const ids = ["b", "a", "é", "😀", "\uE000", "a\u001fsub:1"];
      for (const threadId of ids) {
        const first = checkpoint({ threadId });
        await saveChain(store, first, checkpoint({ threadId, parentId: first.id, step: 1 }));
      }
      expect(await store.listThreads?.()).toEqual(["a", "b", "é", "\uE000", "😀"]);
      await store.deleteThread("a");
      expect(await store.listThreads?.()).toEqual(["b", "é", "\uE000", "😀"]);
    });
  });
}
