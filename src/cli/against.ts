/**
 * `tsg check NEW --against OLD`: the resume points of the old version (a module written by `tsg check
 * --emit-spec`, a `tsg check --json` output, or any graph `tsg check` reads) that the new graph cannot
 * take, through the `--nodes old=new,…` map. What `assertResumable` checks, for a CI step before a deploy.
 */
import { readFileSync } from "node:fs";
import { extname, resolve } from "node:path";
import { checkSpecSchema, InvalidOptionError, stateJsonSchemaOf, type GraphSpec } from "../index.js";
import { checkResumable, type GraphVersion, type Resumability } from "../testing/assert-resumable.js";
import type { StateJsonSchema } from "../validate/state-fields.js";
import { cut, quote } from "../inspect/echo.js";
import { loadGraph } from "./graph-source.js";
import { UsageError } from "./io.js";
import { importUserModule, type GraphLoaders } from "./module-loader.js";

/** The old version as `--against` read it. */
export interface OldVersion {
  readonly label: string;
  readonly spec: GraphSpec;
  readonly stateSchema: StateJsonSchema | null;
}

/**
 * Reads `--against OLD`: a `.json` file (`tsg check --json`'s output, or a spec), or a module's export as
 * `tsg check` reads a graph, with the module's `stateSchema` export when it has one (an `--emit-spec` file).
 *
 * @example
 * ```ts
 * const old = await loadOldVersion("./report.v1.spec.ts", {});
 * ```
 */
export async function loadOldVersion(argument: string, loaders: GraphLoaders): Promise<OldVersion> {
  if (extname(argument).toLowerCase() === ".json") return jsonVersion(argument, resolve(loaders.cwd ?? process.cwd(), argument));
  const source = await loadGraph(argument, loaders);
  if (source.spec === undefined) {
    throw new UsageError(
      `--against ${cut(argument)} does not validate (${source.problems.length} problems); tsg check ${cut(argument)} lists them.`,
    );
  }
  if (source.graph !== undefined) return { label: argument, spec: source.spec, stateSchema: stateJsonSchemaOf(source.graph) ?? null };
  const hash = argument.lastIndexOf("#");
  const file = hash < 0 ? argument : argument.slice(0, hash);
  const module = await importUserModule(file, resolve(loaders.cwd ?? process.cwd(), file), loaders);
  return { label: argument, spec: source.spec, stateSchema: schemaOf(module["stateSchema"]) };
}

function jsonVersion(argument: string, path: string): OldVersion {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    const reason = (error as { code?: unknown }).code === "ENOENT" ? "no such file" : (error as Error).message;
    throw new UsageError(`--against ${cut(argument)} cannot be read as JSON: ${cut(reason, 200)}.`);
  }
  const report =
    typeof parsed === "object" && parsed !== null && "spec" in parsed ? (parsed as { spec: unknown; stateSchema?: unknown }) : undefined;
  const spec = report === undefined ? parsed : report.spec;
  const problems = checkSpecSchema(spec);
  if (spec === null || problems.length > 0) {
    const why =
      spec === null ? "its spec is null (tsg check found problems in that graph)" : `its spec is not a GraphSpec: ${problems[0]?.message}`;
    throw new UsageError(`--against ${cut(argument)}: ${why}. Write it with tsg check OLD --json or --emit-spec.`);
  }
  return { label: argument, spec: spec as GraphSpec, stateSchema: schemaOf(report?.stateSchema) };
}

function schemaOf(value: unknown): StateJsonSchema | null {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as StateJsonSchema) : null;
}

/**
 * The `--nodes` values (`old=new`, comma-separated, repeatable) as one map; `undefined` without `--nodes`
 * (then the new graph's declared migrations give the map).
 *
 * @example
 * ```ts
 * parseNodeMap(["publish=release,hold=publish"]); // { publish: "release", hold: "publish" }
 * ```
 */
export function parseNodeMap(values: readonly string[] | undefined): Record<string, string> | undefined {
  if (values === undefined) return undefined;
  const map: Record<string, string> = {};
  for (const pair of values.flatMap((value) => value.split(","))) {
    const match = /^([^=]+)=([^=]+)$/.exec(pair.trim());
    if (match === null)
      throw new UsageError(`--nodes takes old=new pairs, comma-separated (publish=release,hold=publish); got ${quote(pair)}.`);
    map[(match[1] as string).trim()] = (match[2] as string).trim();
  }
  return map;
}

/**
 * {@link checkResumable} for the command: a map key that names no old node is a usage error. Without
 * `--nodes` (`nodes` undefined), a new version that is a compiled graph is read for the migrations it
 * declares (through its brand, so a module's graph, compiled by the module's own copy of the library,
 * is read too); `--state-migrated` (`stateMigrated` true) overrides what they say of the state.
 *
 * @example
 * ```ts
 * const found = resumabilityAgainst(old, source.graph ?? { spec: source.spec, stateSchema: null }, { publish: "release" }, false);
 * ```
 */
export function resumabilityAgainst(
  old: OldVersion,
  newVersion: GraphVersion,
  nodes: Record<string, string> | undefined,
  stateMigrated: boolean,
): Resumability {
  try {
    return checkResumable({ spec: old.spec, stateSchema: old.stateSchema }, newVersion, {
      ...(nodes === undefined ? {} : { nodes }),
      ...(stateMigrated ? { stateMigrated } : {}),
    });
  } catch (error) {
    if (error instanceof InvalidOptionError)
      throw new UsageError(`--nodes: ${error.message.replace(/^assertResumable: options\.nodes /, "")}`);
    throw error;
  }
}

/**
 * The text `tsg check --against` prints: each point the new graph cannot take with what to declare, or
 * that every point can continue; then how far state fields were compared.
 *
 * @example
 * ```ts
 * io.stdout.write(resumabilityText("report.v1.spec.ts", found));
 * ```
 */
export function resumabilityText(against: string, found: Resumability): string {
  const head =
    found.problems.length === 0
      ? `against ${cut(against)}: every resume point of the old version (${found.points.length}) can continue on this graph`
      : `against ${cut(against)}: ${found.problems.length} resume point${found.problems.length === 1 ? "" : "s"} (or state fields) of the old version cannot continue on this graph:`;
  const lines = found.problems.map((problem) => `  - ${problem.point}: ${problem.reason}; ${problem.fix}.`);
  return [head, ...lines, ...(found.note === undefined ? [] : [`  (${found.note}.)`])].join("\n") + "\n";
}
