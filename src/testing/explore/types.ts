/**
 * The options and results of `exploreGraph`: what the user gives (arbitraries for the input, for the
 * nodes not under test and for interrupt answers; invariants) and what an exploration reports.
 */
import type * as fc from "fast-check";
import type { CoveragePath, CoveragePlan } from "../../coverage/index.js";
import type { AnyCommand, RouteTaken, SuperstepValues } from "../../engine/index.js";

/**
 * What a node not under test does in one call: returns an update or a `Command`, or throws (an `Error`
 * value is thrown, as a model or a tool that fails would).
 */
export type NodeOutcome<S> = { readonly [K in keyof S]?: S[K] } | AnyCommand | Error;

/**
 * An invariant checked after every superstep: `true` when it holds, else a sentence saying what is wrong
 * (printed with the failing run).
 */
export type Invariant<S> = (state: S, step: SuperstepValues<S>) => true | string;

/**
 * Options of {@link exploreGraph}.
 *
 * @example
 * ```ts
 * const options: ExploreOptions<ReportState, ReportNode> = {
 *   input: fc.constant(initialReportState()),
 *   nodes: { check_draft: fc.constantFrom({ verdict: "ok" }, { verdict: "revise" }) },
 *   invariants: { "revisions stay within the allowance": (s) => s.revisions <= 2 || `revisions = ${s.revisions}` },
 * };
 * ```
 */
export interface ExploreOptions<S extends object, N extends string = string> {
  /** The run's input: the whole state (each run starts a new memory thread). */
  readonly input: fc.Arbitrary<S>;
  /**
   * Outcomes of the nodes whose behaviour is not under test (a model, a tool, an HTTP call): each call
   * of such a node draws its outcome from the arbitrary (fast-check shrinks each draw). Other nodes run as
   * written.
   */
  readonly nodes?: { readonly [K in N]?: fc.Arbitrary<NodeOutcome<S>> };
  /**
   * Answers to in-node interrupts: one arbitrary for every interrupt, or one per `defineInterrupt` name
   * (an interrupt without a name, or whose name is not listed, uses `"*"` when given). Without one (and
   * without `"*"`), an interrupt the graph declares (`compile({ interrupts: [approval] })`) with an
   * answer schema is answered from that schema's JSON Schema (zod 4, arktype); a schema that offers none
   * (valibot) is `INVALID_OPTION` asking for an arbitrary here. A pause before or after a node
   * (`interruptBefore`/`interruptAfter`) is resumed without an answer.
   */
  readonly answers?: fc.Arbitrary<unknown> | { readonly [name: string]: fc.Arbitrary<unknown> };
  /** Checked after every superstep of every run, by name. */
  readonly invariants?: { readonly [name: string]: Invariant<S> };
  /** Error codes a run may end with (`NODE_FAILED` for a node that threw, `STEP_LIMIT`…); any other error fails. */
  readonly expectErrors?: readonly string[];
  /** How many runs fast-check generates. Default 100. */
  readonly runs?: number;
  /** fast-check's seed (default: random; printed with a failure). */
  readonly seed?: number;
  /** The run's step limit (default: the graph's). */
  readonly maxSteps?: number;
  /** How many pauses one run may answer before it counts as not ending. Default 20. */
  readonly maxPauses?: number;
  /** A coverage plan: the report says, for each planned path, whether a run took it, and with what. */
  readonly plan?: CoveragePlan;
  /**
   * Differential exploration: each run that passed on the mini engine runs again on these engines with
   * the same input and node outcomes, and must end in an equal state (and with the same error code). A
   * run that paused is not compared (the other engines run without a thread). Needs `xstate` or
   * `@langchain/langgraph` installed.
   */
  readonly differential?: readonly DifferentialEngine[];
}

/** An engine a differential exploration compares the mini engine with. */
export type DifferentialEngine = "xstate" | "langgraph";

/** A planned path some run took, with the input and the outcomes that took it: a test case. */
export interface FeasiblePath<S> {
  readonly path: CoveragePath;
  readonly input: S;
  /** Each replaced node's outcomes, in call order (only the calls the run made). */
  readonly outcomes: Readonly<Record<string, readonly NodeOutcome<S>[]>>;
  /** The answers given to its interrupts, in order. */
  readonly answers: readonly unknown[];
}

/** What {@link exploreGraph} found when no run failed. */
export interface ExplorationReport<S> {
  /** How many runs were generated (shrinking excluded). */
  readonly runs: number;
  /** Distinct paths (node sequences with their route keys) the runs took. */
  readonly distinctPaths: number;
  /** With `plan`: the planned paths some run took, and those no run took. */
  readonly coverage?: {
    readonly feasible: readonly FeasiblePath<S>[];
    readonly notReached: readonly CoveragePath[];
  };
  /** With `differential`: per engine, how many runs were compared, and how many were not (they paused). */
  readonly differential?: { readonly [E in DifferentialEngine]?: { readonly compared: number; readonly paused: number } };
}

/** One run as it happened: what the report and a failure print. */
export interface ExploredRun<S> {
  readonly input: S;
  /** The state after the run's last superstep (the input when none ran). */
  readonly state: S;
  readonly trace: readonly string[];
  readonly routes: readonly RouteTaken[];
  readonly outcomes: Readonly<Record<string, readonly NodeOutcome<S>[]>>;
  readonly answers: readonly unknown[];
  /** Whether the run paused (at an interrupt, or before or after a node) before it ended. */
  readonly paused: boolean;
  /** The code of the expected error (`expectErrors`) the run ended with, when it ended with one. */
  readonly error?: string;
  /** Why the run fails the exploration, when it does. */
  readonly failure?: string;
}
