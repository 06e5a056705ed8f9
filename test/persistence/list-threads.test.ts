/** MemoryCheckpointer and SqliteCheckpointer list their threads alike (test/postgres/list-threads.test.ts: PostgresCheckpointer). */
import type { Checkpointer } from "../../src/persistence/index.js";
import { describeListThreads } from "./list-threads-contract.js";
import { storesUnderTest } from "./_helpers.js";

for (const [name, open] of storesUnderTest("list-threads.sqlite")) {
  const closers = new WeakMap<Checkpointer, () => void>();
  describeListThreads(
    name,
    () => {
      const { checkpointer, close } = open();
      closers.set(checkpointer, close);
      return checkpointer;
    },
    (store) => closers.get(store)?.(),
  );
}
