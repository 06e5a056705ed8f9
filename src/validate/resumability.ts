/**
 * Which resume points of an older version's spec a newer spec cannot take, given the map of old node
 * names to new ones (renamed, split: to the node that takes over; removed: to where a paused thread
 * continues). Pure over the two specs: `assertResumable` and `tsg check --against` read it.
 */
import { END, type GraphSpec } from "../spec.js";
import { resumePoints, type ResumePoint, type ResumePointKind } from "./resume-points.js";

/** A resume point of the old graph that the new graph cannot take, or a state field that changed. */
export interface ResumeProblem {
  /** The old resume point's id (`before:draft`), or `field:NAME` for a state field. */
  readonly point: string;
  readonly kind: ResumePointKind | "field";
  /** What the new graph lacks, naming the nodes (or field) involved. */
  readonly reason: string;
  /** What to declare (or change) so that a thread found there continues on the new graph. */
  readonly fix: string;
}

/** Old node path (`research/web` inside a subgraph) → the node's new name at its level. */
export type NodeMap = Readonly<Record<string, string>>;

/** Where an old node path lands in the new graph, or why it lands nowhere. */
type Landing =
  | { readonly ok: true; readonly path: readonly string[]; readonly level: GraphSpec }
  | { readonly ok: false; readonly reason: string; readonly fix: string };

/**
 * The resume points of `oldSpec` that `newSpec` cannot take through `nodes`, in the old points' order:
 * a node gone and not mapped, mapped to a node the new graph does not have, a subgraph node that is no
 * longer one, a `Send` target gone, a join with no join of the same (mapped) sources into the same target.
 *
 * @example
 * ```ts
 * unresumablePoints(v1.spec, v2.spec, { publish: "release" }); // [] when "publish" became "release"
 * unresumablePoints(v1.spec, v2.spec).map((problem) => problem.point); // ["before:publish", "interrupt:publish", "after:publish"]
 * ```
 */
export function unresumablePoints(oldSpec: GraphSpec, newSpec: GraphSpec, nodes: NodeMap = {}): ResumeProblem[] {
  const problems: ResumeProblem[] = [];
  for (const point of resumePoints(oldSpec)) {
    const problem = point.kind === "join" ? joinProblem(point, newSpec, nodes) : nodeProblem(point, newSpec, nodes);
    if (problem !== undefined) problems.push(problem);
  }
  return problems;
}

/**
 * Every node path of a spec, through its subgraphs (`research`, `research/web`): the keys a node map may use.
 *
 * @example
 * ```ts
 * nodePaths(spec); // ["plan", "research", "research/web", "synthesize"]
 * ```
 */
export function nodePaths(spec: GraphSpec, prefix = ""): string[] {
  return spec.nodes.flatMap((node) => {
    const path = `${prefix}${node}`;
    const child = spec.subgraphs?.[node];
    return child === undefined ? [path] : [path, ...nodePaths(child, `${path}/`)];
  });
}

function nodeProblem(point: ResumePoint, newSpec: GraphSpec, nodes: NodeMap): ResumeProblem | undefined {
  const landing = land(point.path, newSpec, nodes);
  return landing.ok ? undefined : { point: point.id, kind: point.kind, reason: landing.reason, fix: landing.fix };
}

function joinProblem(point: ResumePoint, newSpec: GraphSpec, nodes: NodeMap): ResumeProblem | undefined {
  const sources = point.sources ?? [];
  const prefix = point.path.slice(0, -1);
  const target = land(point.path, newSpec, nodes);
  if (!target.ok) return { point: point.id, kind: "join", reason: `its target: ${target.reason}`, fix: target.fix };
  const landed = sources.map((source) => land([...prefix, source], newSpec, nodes));
  const lost = landed.find((landing) => !landing.ok);
  if (lost !== undefined && !lost.ok) return { point: point.id, kind: "join", reason: `a source: ${lost.reason}`, fix: lost.fix };
  const to = target.path.at(-1);
  const from = new Set(landed.map((landing) => (landing.ok ? landing.path.at(-1) : undefined)));
  const joins = target.level.joins ?? [];
  const same = joins.some((join) => join.to === to && join.from.length === from.size && join.from.every((source) => from.has(source)));
  if (same) return undefined;
  const into = joins.filter((join) => join.to === to).map((join) => `[${names(join.from)}]`);
  const had = `the old graph joins [${names(sources)}] into ${quoteName(point.path.at(-1) ?? "")}`;
  const now =
    into.length === 0 ? `the new graph has no join into ${quoteName(to ?? "")}` : `the new graph joins ${into.join(" and ")} into it`;
  return {
    point: point.id,
    kind: "join",
    reason: `${had}, and ${now}: a thread waiting there keeps the arrivals of the old sources`,
    fix: "map the old sources to the new join's sources (renamed nodes), or keep the old join until no thread waits at it",
  };
}

/** Follows an old node path into the new spec, level by level, through the node map. */
function land(path: readonly string[], newSpec: GraphSpec, nodes: NodeMap): Landing {
  let level = newSpec;
  const landed: string[] = [];
  for (let depth = 0; depth < path.length; depth++) {
    const oldPath = path.slice(0, depth + 1).join("/");
    const oldName = path[depth] ?? "";
    const mapped = Object.hasOwn(nodes, oldPath) ? nodes[oldPath] : undefined;
    const name = mapped ?? oldName;
    if (depth > 0) {
      const child = level.subgraphs?.[landed.at(-1) ?? ""];
      if (child === undefined) {
        const parent = landed.join("/");
        return {
          ok: false,
          reason: `${quoteName(parent)} is not a subgraph node in the new graph, and a thread paused inside it waits in its child graph`,
          fix: `keep ${quoteName(parent)} a subgraph node, or let the threads paused inside it finish before deploying`,
        };
      }
      level = child;
    }
    // END is no node, yet a join may lead to it: the new graph always has it.
    if (name !== END && !level.nodes.includes(name)) return gone(oldPath, mapped, level);
    landed.push(name);
  }
  return { ok: true, path: landed, level };
}

function gone(oldPath: string, mapped: string | undefined, level: GraphSpec): Landing {
  const known = `the new graph's nodes there: ${names(level.nodes)}`;
  if (mapped === undefined) {
    return {
      ok: false,
      reason: `node ${quoteName(oldPath)} is not in the new graph`,
      fix: `map it to the node that takes over: nodes: { ${JSON.stringify(oldPath)}: "<new node>" } (${known})`,
    };
  }
  return {
    ok: false,
    reason: `node ${quoteName(oldPath)} is mapped to ${quoteName(mapped)}, which the new graph does not have`,
    fix: `map ${quoteName(oldPath)} to a node of the new graph (${known})`,
  };
}

const quoteName = (name: string): string => JSON.stringify(name);
/** The most names a message lists: a graph of thousands of nodes still gives a readable message. */
const LISTED_NAMES = 20;

function names(list: readonly string[]): string {
  const listed = list.slice(0, LISTED_NAMES).map(quoteName).join(", ");
  return list.length > LISTED_NAMES ? `${listed} and ${list.length - LISTED_NAMES} more` : listed;
}
