/** The Checkpointer contract (contract.ts), run against the stores this package ships. */
import { MemoryCheckpointer } from "../../src/persistence/index.js";
import { join } from "node:path";
import { onDriver, openSqlite, SQLITE_DRIVER_INSTALLED, tempDir } from "./_helpers.js";
import { describeCheckpointerContract } from "./contract.js";

describeCheckpointerContract("MemoryCheckpointer", () => new MemoryCheckpointer());

if (SQLITE_DRIVER_INSTALLED) {
  const dirs = new WeakMap<object, () => void>();
  describeCheckpointerContract(
    onDriver("SqliteCheckpointer"),
    () => {
      const { dir, remove } = tempDir();
      const checkpointer = openSqlite(join(dir, "checkpoints.sqlite"));
      dirs.set(checkpointer, remove);
      return checkpointer;
    },
    (checkpointer) => {
      checkpointer.close();
      dirs.get(checkpointer)?.();
    },
  );
}
