/**
 * How explored runs are printed and compared with a coverage plan: a run's path (node by node, with the
 * route keys), the key that tells two paths apart, and which planned paths some run took.
 */
import type { CoveragePath, CoveragePlan } from "../../coverage/index.js";
import type { RouteTaken } from "../../engine/index.js";
import type { ExplorationReport, ExploredRun, FeasiblePath } from "./types.js";

/** The longest value a failure prints (input, outcome, answer) before cutting it. */
const VALUE_CHARS = 200;

/**
 * A run as a failure prints it: the path (`START → plan [revise] → draft → … `), then the input, each
 * replaced node's outcomes and the answers, each value cut to a readable length.
 */
export function describeRun(run: ExploredRun<unknown>): string {
  const lines = [`path: ${formatRunPath(run)}`, `input: ${preview(run.input)}`];
  for (const [node, outcomes] of Object.entries(run.outcomes))
    lines.push(`${node} returned, call by call: ${outcomes.map(previewOutcome).join(" | ")}`);
  if (run.answers.length > 0) lines.push(`answers: ${run.answers.map(preview).join(" | ")}`);
  return lines.join("\n");
}

/** `START → a [key] → b → …`: each node, and after it the route key its router chose. */
export function formatRunPath(run: Pick<ExploredRun<unknown>, "trace" | "routes">): string {
  const keysAfter = new Map<string, string[]>();
  for (const route of run.routes) keysAfter.set(route.from, [...(keysAfter.get(route.from) ?? []), route.key]);
  const taken = new Map<string, number>();
  const start = keysAfter.get("__start__")?.[0];
  const steps = run.trace.map((node) => {
    const index = taken.get(node) ?? 0;
    taken.set(node, index + 1);
    const key = keysAfter.get(node)?.[index];
    return key === undefined ? node : `${node} [${key}]`;
  });
  return [start === undefined ? "START" : `START [${start}]`, ...steps].join(" → ");
}

/** What tells two runs' paths apart: the trace and the route keys, in order. */
export function pathKey(run: Pick<ExploredRun<unknown>, "trace" | "routes">): string {
  return JSON.stringify([run.trace, run.routes.map(routeKey)]);
}

/** For each planned path, the first run that took it (its input, outcomes and answers), and the paths none took. */
export function planCoverage<S>(plan: CoveragePlan, runs: readonly ExploredRun<S>[]): NonNullable<ExplorationReport<S>["coverage"]> {
  const firstRun = new Map<string, ExploredRun<S>>();
  for (const run of runs) if (!firstRun.has(pathKey(run))) firstRun.set(pathKey(run), run);
  const feasible: FeasiblePath<S>[] = [];
  const notReached: CoveragePath[] = [];
  for (const path of plan.paths) {
    const run = firstRun.get(pathKey(path));
    if (run === undefined) notReached.push(path);
    else feasible.push({ path, input: run.input, outcomes: run.outcomes, answers: run.answers });
  }
  return { feasible, notReached };
}

/** How a run ended, for a differential failure: `state {…}` or `NODE_FAILED with state {…}`. */
export function describeEnd(end: { readonly state: unknown; readonly error?: string }): string {
  return `${end.error === undefined ? "" : `${end.error} with `}state ${preview(end.state)}`;
}

function routeKey(route: Pick<RouteTaken, "from" | "key">): string {
  return `${route.from}:${route.key}`;
}

function previewOutcome(outcome: unknown): string {
  return outcome instanceof Error ? `throws ${outcome.name}: ${outcome.message.slice(0, VALUE_CHARS)}` : preview(outcome);
}

/** A value as JSON, cut to {@link VALUE_CHARS} with how much was cut. */
function preview(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length <= VALUE_CHARS ? text : `${text.slice(0, VALUE_CHARS)}… (${text.length - VALUE_CHARS} more characters)`;
}
