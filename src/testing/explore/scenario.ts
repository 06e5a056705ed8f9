/**
 * `runScenario`: one recorded case run again, deterministically (no fast-check, no model, no network):
 * the input, each replaced node's outcomes in call order, and the answers to its interrupts in order.
 * What `tsg test --emit vitest` writes for each planned path that exploration found feasible.
 */
import type { CompiledGraph } from "../../engine/index.js";
import { InvalidOptionError } from "../../errors.js";
import { answerSource, nodeSource, runOnce, type DrawSources } from "./run-once.js";
import type { ExploredRun, NodeOutcome } from "./types.js";

/**
 * A recorded run: what {@link FeasiblePath} holds, and what a generated test replays.
 *
 * @example
 * ```ts
 * const scenario: Scenario<Review> = { input: { draft: "", approved: null }, answers: [true] };
 * ```
 */
export interface Scenario<S> {
  readonly input: S;
  /** Each replaced node's outcomes, in call order: an update, a `Command`, or an `Error` it throws. */
  readonly outcomes?: Readonly<Record<string, readonly NodeOutcome<S>[]>>;
  /** The answers to the run's in-node interrupts, in the order the run asks. */
  readonly answers?: readonly unknown[];
}

/**
 * Runs a recorded scenario on a memory thread: nodes named in `outcomes` return (or throw) their
 * recorded outcomes in call order, the others run as written; each in-node interrupt takes the next
 * answer, each static pause resumes. Resolves with the run (its `trace`, `routes`, final `state`, and
 * `failure` when it ended with an error). A node called more often than it has outcomes, or an
 * interrupt with no answer left, is `INVALID_OPTION` naming it: the graph changed since the recording.
 *
 * @example
 * ```ts
 * const run = await runScenario(graph, { input: { draft: "", approved: null }, answers: [true] });
 * expect(run.trace).toEqual(["write", "review", "publish"]);
 * ```
 */
export async function runScenario<S extends object, N extends string>(
  graph: CompiledGraph<S, N>,
  scenario: Scenario<S>,
): Promise<ExploredRun<S>> {
  const outcomes = scenario.outcomes ?? {};
  const known = new Set<string>(graph.spec.nodes);
  for (const node of Object.keys(outcomes)) {
    if (!known.has(node))
      throw new InvalidOptionError(`runScenario: outcomes names "${node.slice(0, 80)}", which is not a node of the graph.`);
  }
  const exhausted = (key: string): never => {
    const [kind, name] = [key.slice(0, key.indexOf(":")), key.slice(key.indexOf(":") + 1)];
    throw new InvalidOptionError(
      kind === "node"
        ? `runScenario: "${name}" was called more often than the scenario records outcomes for it (${outcomes[name]?.length ?? 0}); the graph or its input changed since the recording: record the scenario again (tsg test --emit vitest).`
        : `runScenario: the run asked for more answers than the scenario records (${scenario.answers?.length ?? 0}); record the scenario again (tsg test --emit vitest).`,
    );
  };
  const sources: DrawSources<S> = {
    nodes: new Map(Object.keys(outcomes).map((node) => [node, () => exhausted(nodeSource(node))])),
    answers: new Map([["*", () => exhausted(answerSource("*"))]]),
  };
  const lists: Record<string, readonly unknown[]> = { [answerSource("*")]: scenario.answers ?? [] };
  for (const [node, list] of Object.entries(outcomes)) lists[nodeSource(node)] = list;
  return runOnce(graph, { input: scenario.input, lists, more: (key) => exhausted(key) }, sources, {});
}
