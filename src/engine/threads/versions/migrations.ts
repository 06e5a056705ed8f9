/**
 * Migrations, as a graph declares them (issue 42 §2): for each older version it still accepts, how a
 * checkpoint of that version becomes one of the next: its state, the names of its nodes, its pending
 * `Send` payloads and the interrupt answers it kept. `migrateFrom` types the node map against the old
 * graph's spec module (`as const`) and the graph that takes it over; `compile({ migrations })` checks
 * the rest at run time. Applying them is `migrate-checkpoint.ts`.
 */
import { describeValue, quote } from "../../../_describe.js";
import { InvalidOptionError } from "../../../errors.js";
import type { JsonValue, PendingInterrupt } from "../../checkpointer.js";
import { isGraphVersion } from "./graph-version.js";
import type { GraphMigration } from "../../graph-stamp.js";

export type { GraphMigration };

/** The node names of a spec (`{ nodes: [...] } as const`): what a node map's keys may be. */
export type SpecNodeNames<Sp> = Sp extends { readonly nodes: readonly (infer N extends string)[] } ? N : never;

/** A spec as a migration reads it: its node names (a `GraphSpec`, or a spec module written `as const`). */
export interface SpecWithNodes {
  readonly nodes: readonly string[];
}

/**
 * How a checkpoint of version `from` becomes one of the next version (the next migration's `from`, or
 * the graph's own version). `OldN` is the old graph's node names, `N2` the names of the graph after it.
 */
export interface MigrationDeclaration<S1, S2, OldN extends string, N2 extends string> {
  /** The version it migrates from: a whole number from 1, lower than the graph's. */
  readonly from: number;
  /** The state of version `from`, as the next version's: a new required field gets its value here. Default: the state as it was. */
  readonly state?: (old: S1) => S2;
  /**
   * Old node names to new ones, for a node renamed, split (the node that takes over) or removed (where
   * a paused run continues). A name not listed stays as it is. A thread paused at, or with a kept write
   * of, a node the new graph lacks is refused (`UNMAPPED_RESUME_POINT`), listing each such point.
   */
  readonly nodes?: { readonly [K in OldN]?: N2 };
  /** A pending `Send`'s payload, as the new node takes it. Default: as it was. */
  readonly sends?: (payload: JsonValue, node: OldN) => JsonValue;
  /** An answer already given to a pending interrupt (a partial resume's), as the new node reads it. Default: as it was. */
  readonly answers?: (answer: JsonValue, pending: PendingInterrupt) => JsonValue;
  /**
   * A kept pending write's update (a task that finished in a superstep that did not commit: a partial
   * update of the old state), as an update of the new state. Default: as it was when there is no
   * `state` migration; with one, the kept writes are dropped and their tasks run again on the migrated
   * state (a state migration maps a whole state: applied to a part of one it would invent the rest).
   */
  readonly writes?: (update: Partial<S1>, node: OldN) => Partial<S2>;
}

/** A node map from the old names `OldN` to names of `N2`. */
export type NodeMap<OldN extends string, N2 extends string> = { readonly [K in OldN]?: N2 };

/** The names a node map leads to. */
export type MapTargets<Map> = Map[keyof Map] & string;

/**
 * A declaration whose node map is the type parameter `Map` (so its values are inferred as written), a
 * key that is not an old node name being an error.
 */
export type DeclarationWith<S1, S2, OldN extends string, Map> = Omit<MigrationDeclaration<S1, S2, OldN, string>, "nodes"> & {
  readonly nodes?: Map & { readonly [K in Exclude<keyof Map, OldN>]: never };
};

/**
 * Declares how a checkpoint written by an older version of a graph continues on the next: `spec` is the
 * old graph's spec, written as a module `as const` (`tsg check --emit-spec OLD.ts`), so its node names
 * type the map's keys; the graph that takes it types the map's values and the state's result. For a
 * graph two versions on, chain them: the older migration names the middle version's spec in `to`.
 *
 * @example
 * ```ts
 * import { spec as v1 } from "./review.v1.spec.js";
 * const graph = builder.compile({
 *   version: 2,
 *   migrations: [
 *     migrateFrom(v1, {
 *       from: 1,
 *       state: (old: ReviewV1) => ({ ...old, audience: "everyone" }), // a new required field
 *       nodes: { write: "draft", publish: "release" }, // write split into draft → polish; publish renamed
 *     }),
 *   ],
 * });
 * ```
 */
export function migrateFrom<
  const Sp extends SpecWithNodes,
  const Map extends NodeMap<SpecNodeNames<Sp>, string> = {},
  S1 = Record<string, unknown>,
  S2 = never,
>(
  spec: Sp,
  declaration: DeclarationWith<S1, S2, SpecNodeNames<Sp>, Map> & { readonly to?: undefined },
): GraphMigration<S2, MapTargets<Map>>;
/** A migration to a middle version (`to`: its spec), typed against that version's node names. */
export function migrateFrom<
  const Sp extends SpecWithNodes,
  const To extends SpecWithNodes,
  const Map extends NodeMap<SpecNodeNames<Sp>, SpecNodeNames<To>> = {},
  S1 = Record<string, unknown>,
  S2 = unknown,
>(spec: Sp, declaration: DeclarationWith<S1, S2, SpecNodeNames<Sp>, Map> & { readonly to: To }): GraphMigration<never, never>;
export function migrateFrom(spec: unknown, declaration: unknown): GraphMigration<never, never> {
  const api = "migrateFrom";
  const nodesOf = (value: unknown, what: string): readonly string[] => {
    const nodes = (value as { nodes?: unknown } | null | undefined)?.nodes;
    if (Array.isArray(nodes) && nodes.every((node) => typeof node === "string")) return [...nodes];
    throw new InvalidOptionError(
      `${api}: ${what} must be a graph spec with its node names ({ nodes: [...] }); got ${describeValue(value)}.`,
    );
  };
  const oldNodes = nodesOf(spec, "the old graph's spec");
  if (typeof declaration !== "object" || declaration === null)
    throw new InvalidOptionError(
      `${api}: expected { from, state?, nodes?, sends?, answers?, writes? }; got ${describeValue(declaration)}.`,
    );
  const { from, state, nodes = {}, sends, answers, writes, to } = declaration as LooseDeclaration;
  if (!isGraphVersion(from))
    throw new InvalidOptionError(`${api}: from must be the old version, a whole number from 1; got ${describeValue(from)}.`);
  for (const [name, fn] of [
    ["state", state],
    ["sends", sends],
    ["answers", answers],
    ["writes", writes],
  ] as const) {
    if (fn !== undefined && typeof fn !== "function")
      throw new InvalidOptionError(`${api}: ${name} must be a function; got ${describeValue(fn)}.`);
  }
  const toNodes = to === undefined ? undefined : nodesOf(to, "to");
  if (typeof nodes !== "object" || nodes === null || Array.isArray(nodes))
    throw new InvalidOptionError(
      `${api}: nodes must map old node names to new ones, e.g. { publish: "release" }; got ${describeValue(nodes)}.`,
    );
  const map: Record<string, string> = {};
  for (const [old, target] of Object.entries(nodes)) {
    if (!oldNodes.includes(old))
      throw new InvalidOptionError(
        `${api}: nodes maps ${quote(old)}, which the old graph (version ${from}) does not have. Name its nodes: ${oldNodes.map((n) => quote(n)).join(", ")}.`,
      );
    if (typeof target !== "string")
      throw new InvalidOptionError(`${api}: nodes maps ${quote(old)} to ${describeValue(target)}; map it to a node name.`);
    if (toNodes !== undefined && !toNodes.includes(target))
      throw new InvalidOptionError(
        `${api}: nodes maps ${quote(old)} to ${quote(target)}, which the version it leads to (to) does not have.`,
      );
    map[old] = target;
  }
  // Checked above: the functions are functions and the map names nodes; the type parameters are the caller's.
  return Object.freeze({ from, oldNodes, toNodes, state, nodes: Object.freeze(map), sends, answers, writes }) as GraphMigration<
    never,
    never
  >;
}

/** A declaration as `migrateFrom` receives it, before its checks. */
interface LooseDeclaration {
  readonly from?: unknown;
  readonly state?: (old: never) => never;
  readonly nodes?: unknown;
  readonly sends?: (payload: JsonValue, node: never) => JsonValue;
  readonly answers?: (answer: JsonValue, pending: PendingInterrupt) => JsonValue;
  readonly writes?: (update: never, node: never) => unknown;
  readonly to?: unknown;
}

/**
 * `compile({ migrations })`, checked against the graph: each made by `migrateFrom`, from a version lower
 * than the graph's, no two from one version, each node map leading to the graph's nodes (or its `to`'s);
 * sorted oldest first. Else `INVALID_OPTION`.
 */
export function checkMigrations(value: unknown, version: number, nodes: ReadonlySet<string>, api: string): readonly GraphMigration[] {
  if (value === undefined) return [];
  if (!Array.isArray(value))
    throw new InvalidOptionError(`${api}: migrations must be a list of migrateFrom(…) values; got ${describeValue(value)}.`);
  const migrations = value.map((migration: unknown, index) => {
    if (typeof migration !== "object" || migration === null || !Object.isFrozen(migration) || !("oldNodes" in migration))
      throw new InvalidOptionError(
        `${api}: migrations[${index}] must be made by migrateFrom(spec, { from, … }); got ${describeValue(migration)}.`,
      );
    const checked = migration as GraphMigration;
    if (checked.from >= version)
      throw new InvalidOptionError(
        `${api}: migrations[${index}] migrates from version ${checked.from}, not older than this graph's version ${version}. Raise compile({ version }).`,
      );
    return checked;
  });
  const sorted = [...migrations].sort((a, b) => a.from - b.from);
  sorted.forEach((migration, index) => {
    if (sorted[index + 1]?.from === migration.from)
      throw new InvalidOptionError(`${api}: two migrations from version ${migration.from}; declare one per older version.`);
    const last = index === sorted.length - 1;
    if (!last) return;
    if (migration.toNodes !== undefined)
      throw new InvalidOptionError(
        `${api}: the migration from version ${migration.from}, the newest, leads to this graph: leave its to out.`,
      );
    const unknown = Object.entries(migration.nodes).find(([, target]) => !nodes.has(target));
    if (unknown !== undefined)
      throw new InvalidOptionError(
        `${api}: the migration from version ${migration.from} maps ${quote(unknown[0])} to ${quote(unknown[1])}, which this graph does not have.`,
      );
  });
  return Object.freeze(sorted);
}
