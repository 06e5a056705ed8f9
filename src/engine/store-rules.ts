/**
 * The engine's rules a store (a `Checkpointer`) must apply the same way the engine does, for
 * `src/persistence/` and `src/postgres/` only: the JSON check of what it is handed, the checks of the
 * options every store takes, how a subgraph's thread id is made under its parent's, and the key of a
 * synchronous save. Not a driver's seam: no run rule is here (test/architecture.test.ts holds who may
 * import it and what it may export); the rules live where the engine uses them, this module only
 * names the ones a store shares.
 */
export { checkJson, findNonJson } from "./json-check.js";
export { checkListOptions, checkMetadata } from "./threads/store-options.js";
export { NAMESPACE_SEPARATOR, isUnderThread } from "./subgraph-thread.js";
export { saveNow, type SavesNow } from "./threads/durability.js";
