/**
 * The check before deploying a new version of a graph: can every thread of the old version, wherever it
 * is paused or stopped, continue on the new one? Reads the two specs (and the states' JSON Schemas when
 * both have one), never a store.
 */
import { InvalidOptionError, type CompiledGraph, type GraphSpec } from "../index.js";
import { graphBrandOf, stateJsonSchema, type GraphMigration } from "../engine/index.js";
import { nodePaths, unresumablePoints, type NodeMap, type ResumeProblem } from "../validate/resumability.js";
import { resumePoints, type ResumePoint } from "../validate/resume-points.js";
import { stateFieldChanges, type StateComparison, type StateJsonSchema } from "../validate/state-fields.js";
import { ResumabilityError } from "./resumability-error.js";

/**
 * A version of a graph: a compiled graph, a spec, or a module written by `tsg check --emit-spec`
 * (`import * as v1 from "./graph.v1.spec.js"`: its `spec` and `stateSchema`).
 */
export type GraphVersion =
  | CompiledGraph<object, string, object>
  | GraphSpec
  | { readonly spec: GraphSpec; readonly stateSchema?: StateJsonSchema | null };

/**
 * What a newer version declares about the older one. Without these, a new version that is a compiled
 * graph is read for its declared migrations (`compile({ migrations: [migrateFrom(v1, …)] })`): the
 * migration (or chain of migrations) from the old version's node names gives the node map, and a
 * `state` migration in it counts as `stateMigrated`.
 */
export interface ResumableOptions {
  /**
   * Old node name → new node name: renamed, split (the node that takes over), removed (where a paused
   * thread continues). Inside a subgraph, the key is the old node's path (`"research/web"`) and the value
   * its new name within the subgraph.
   */
  readonly nodes?: NodeMap;
  /** `true` when the new version migrates the old state: changed state fields are then not problems. */
  readonly stateMigrated?: boolean;
}

/** What {@link checkResumable} found. */
export interface Resumability {
  /** Every resume point of the old version. */
  readonly points: readonly ResumePoint[];
  /** The resume points the new graph cannot take, then the state fields that changed; empty when every thread can continue. */
  readonly problems: readonly ResumeProblem[];
  /** How far state fields were compared: by their JSON Schemas, by their names only, or not at all. */
  readonly stateFields: StateComparison;
  /** Why the fields were not compared by their schemas, when they were not. */
  readonly note?: string;
}

/**
 * Lists every resume point of `oldVersion` that `newVersion` cannot take (see {@link assertResumable}),
 * without throwing for them: what `tsg check NEW --against OLD` prints.
 *
 * @throws InvalidOptionError (`INVALID_ARGUMENT`) for a version that is neither a graph nor a spec, or a
 * `nodes` key that names no node of the old version.
 * @example
 * ```ts
 * const { problems } = checkResumable(v1, v2, { nodes: { publish: "release" } });
 * for (const problem of problems) console.log(`${problem.point}: ${problem.reason}; ${problem.fix}`);
 * ```
 */
export function checkResumable(oldVersion: GraphVersion, newVersion: GraphVersion, options: ResumableOptions = {}): Resumability {
  const before = versionOf(oldVersion, "the old version");
  const after = versionOf(newVersion, "the new version");
  const declared = options.nodes === undefined ? declaredFrom(before.spec, after.migrations) : undefined;
  const nodes = options.nodes ?? declared?.nodes ?? {};
  const stateMigrated = options.stateMigrated ?? declared?.stateMigrated ?? false;
  const known = new Set(nodePaths(before.spec));
  const unknown = Object.keys(nodes).filter((key) => !known.has(key));
  if (unknown.length > 0) {
    throw new InvalidOptionError(
      `assertResumable: options.nodes names ${unknown.map((key) => JSON.stringify(key)).join(", ")}, which the old version does not have; its keys are old node names (a subgraph's: "parent/child").`,
      { code: "INVALID_ARGUMENT" },
    );
  }
  const fields = stateFieldChanges(before, after);
  return {
    points: resumePoints(before.spec),
    problems: [...unresumablePoints(before.spec, after.spec, nodes), ...(stateMigrated ? [] : fields.problems)],
    stateFields: fields.compared,
    ...(fields.note === undefined ? {} : { note: fields.note }),
  };
}

/**
 * Throws when a thread of `oldVersion` could be found somewhere `newVersion` cannot continue from: before
 * or after a node, in a node's `interrupt()` (inside subgraphs too), at a pending `Send` or at a waiting
 * join. Each is reported with what to declare: a node map entry for a node renamed, split or removed.
 * State fields whose type changed (or that were removed, or added as required) are reported when both
 * versions have a state JSON Schema; without them the message says fields were not compared.
 *
 * @throws ResumabilityError (`NOT_RESUMABLE`) listing each point (its `problems`).
 * @example
 * ```ts
 * import * as v1 from "./report.v1.spec.js"; // written by `tsg check report --emit-spec report.v1.spec.ts`
 * assertResumable(v1, buildReportGraphV2(), { nodes: { publish: "release" } });
 * ```
 */
export function assertResumable(oldVersion: GraphVersion, newVersion: GraphVersion, options: ResumableOptions = {}): void {
  const { problems, note } = checkResumable(oldVersion, newVersion, options);
  if (problems.length > 0) throw new ResumabilityError(problems, note);
}

/**
 * The node map and state migration a graph declares for threads of `old`: the migration whose old node
 * names are `old`'s, followed through its `to` chain (v1 → v2 → v3) to the graph itself, the maps
 * composed. `undefined` when no declared migration starts from `old`'s node names.
 */
function declaredFrom(old: GraphSpec, migrations: readonly GraphMigration[]): { nodes: NodeMap; stateMigrated: boolean } | undefined {
  const sameNames = (names: readonly string[], others: readonly string[]) =>
    names.length === others.length && names.every((name) => others.includes(name));
  let step = migrations.find((migration) => sameNames(migration.oldNodes, old.nodes));
  if (step === undefined) return undefined;
  const landing = new Map(old.nodes.map((node) => [node, node]));
  let stateMigrated = false;
  for (const seen = new Set<GraphMigration>(); step !== undefined && !seen.has(step); ) {
    seen.add(step);
    const map = step.nodes;
    for (const [from, at] of landing) landing.set(from, map[at] ?? at);
    stateMigrated ||= step.state !== undefined;
    const to: readonly string[] | undefined = step.toNodes;
    step = to === undefined ? undefined : migrations.find((migration) => sameNames(migration.oldNodes, to));
  }
  return { nodes: Object.fromEntries([...landing].filter(([from, to]) => from !== to)), stateMigrated };
}

/** A version as the check reads it; a compiled graph's declared migrations come with it. */
interface ReadVersion {
  readonly spec: GraphSpec;
  readonly schema: StateJsonSchema | null;
  readonly migrations: readonly GraphMigration[];
}

function versionOf(version: GraphVersion, which: string): ReadVersion {
  // A compiled graph through its brand, not instanceof: one compiled by another copy of the library (a
  // module tsg loaded, another install) is read alike.
  const brand = graphBrandOf(version);
  if (brand !== undefined) return { spec: brand.spec, schema: stateJsonSchema(brand.stateSchema) ?? null, migrations: brand.migrations };
  if (typeof version === "object" && version !== null) {
    if ("nodes" in version && Array.isArray(version.nodes)) return { spec: version, schema: null, migrations: [] };
    if ("spec" in version && typeof version.spec === "object" && version.spec !== null) {
      // A compiled graph without a brand (a release before brands) is read as its spec alone.
      return { spec: version.spec, schema: ("stateSchema" in version ? version.stateSchema : null) ?? null, migrations: [] };
    }
  }
  throw new InvalidOptionError(
    `assertResumable: ${which} must be a compiled graph, a GraphSpec, or a module written by tsg check --emit-spec ({ spec, stateSchema }); got ${version === null ? "null" : typeof version}.`,
    { code: "INVALID_ARGUMENT" },
  );
}
