/**
 * The type-check benchmark as a function: generated graphs of each size and form, checked on TS 6 and
 * TS 7 with `--extendedDiagnostics`; the largest size the reachability search still covers (found
 * with a deliberate defect that only the search reports); and what happens beyond it. `types.ts` is
 * its command line; the smoke test calls it at tiny sizes.
 */
import { loadAverage, machineInfo, machineLines } from "./_machine.js";
import { table } from "./_markdown.js";
import { checkSource, compilersOf, createProject, type CheckFigures, type Compiler, type Project } from "./typecheck/check.js";
import { AGENT_NODES } from "./typecheck/agent.js";
import { graphSource, ORPHAN_MESSAGE, TOO_DEEP_MESSAGE, type GraphForm, type GraphSource } from "./typecheck/generate.js";

/** What a suite run checks. */
export interface TypesOptions {
  /** The repository root (its node_modules and tsconfig.build.json). */
  readonly root: string;
  readonly sizes: readonly number[];
  readonly forms: readonly GraphForm[];
  /** Checks per row; the row shows the median check time. */
  readonly repeat: number;
  /** Look for the largest size the search covers between these sizes; `undefined` skips the search. */
  readonly boundary: { readonly from: number; readonly to: number } | undefined;
  /** Whether to check the 60-node agent graph (`typecheck/agent.ts`) on each compiler. */
  readonly agent: boolean;
  /** Sizes also checked with `{ typeLevelTopology: false }` (builder form). */
  readonly withoutSearch: readonly number[];
  /** Sizes also checked in the `bounded` form (`loops: "bounded"`, every routing node bounded: the type-level cycle check runs). */
  readonly boundedSizes: readonly number[];
  /** Keep the temp project (its path is logged). */
  readonly keep: boolean;
  readonly log: (line: string) => void;
}

/** The default, full run of `npm run bench:types`. */
export const FULL_TYPES_RUN: Omit<TypesOptions, "root" | "log"> = {
  sizes: [10, 50, 100, 200, 500],
  forms: ["builder", "defineGraph"],
  repeat: 3,
  boundary: { from: 900, to: 1000 },
  withoutSearch: [500],
  boundedSizes: [100, 500],
  agent: true,
  keep: false,
};

/** How a check ended. */
export type Outcome = "clean" | "too deep: explicit message" | "orphan reported" | "TS2589" | "unexpected errors";

/** One checked graph. */
export interface TypeRow {
  readonly source: GraphSource;
  readonly compiler: string;
  /** Check times of every repeat, in seconds. */
  readonly checkTimes: readonly number[];
  readonly figures: CheckFigures;
  readonly outcome: Outcome;
}

/** The reachability search's reach. */
export interface Boundary {
  /** The largest chain size at which the search still reports the orphan, on every compiler and form probed. */
  readonly largest: number;
  /**
   * The rows that show it: the orphan reported at `largest` and the explicit message at `largest + 1`,
   * or, when the search covers the whole range, the orphan reported at its top.
   */
  readonly rows: readonly TypeRow[];
  /** Whether the search still reports the orphan at the top of the searched range. */
  readonly coversRange: boolean;
}

/** A target of issue 9, as in the runtime suite. */
export interface TypesTarget {
  readonly what: string;
  readonly target: string;
  readonly measured: string;
  readonly met: boolean | undefined;
}

/** What a suite run produced. */
export interface TypesResult {
  readonly rows: readonly TypeRow[];
  readonly boundary: Boundary | undefined;
  readonly targets: readonly TypesTarget[];
  /** Rows whose outcome is not the expected one (see {@link expectedOutcome}); empty when all is well. */
  readonly failures: readonly string[];
  readonly markdown: string;
}

/** Runs the suite. */
export async function runTypesSuite(options: TypesOptions): Promise<TypesResult> {
  const compilers = compilersOf(options.root);
  const fastest = compilers[compilers.length - 1] as Compiler;
  const loadBefore = loadAverage();
  const project = createProject(options.root, fastest);
  options.log(`temp project: ${project.dir} (declarations emitted by ${fastest.name})`);
  try {
    const rows: TypeRow[] = [];
    const check = (source: GraphSource, compiler: Compiler, repeat = options.repeat): TypeRow => {
      const row = checkRow(project, compiler, source, repeat);
      options.log(`${describeSource(source)} on ${compiler.name}: check ${row.figures.checkTime}s, ${row.outcome}`);
      return row;
    };
    for (const nodes of options.sizes) {
      for (const form of options.forms)
        for (const compiler of compilers) rows.push(check({ form, nodes, typeLevelTopology: true }, compiler));
    }
    if (options.agent)
      for (const compiler of compilers) rows.push(check({ form: "agent", nodes: AGENT_NODES, typeLevelTopology: true }, compiler));
    for (const nodes of options.withoutSearch)
      for (const compiler of compilers) rows.push(check({ form: "builder", nodes, typeLevelTopology: false }, compiler));
    // Issue 41: with the loop bounds checked, N=500 within the same budgets (BUDGETS' row for 500).
    for (const nodes of options.boundedSizes)
      for (const compiler of compilers) rows.push(check({ form: "bounded", nodes, typeLevelTopology: true }, compiler));

    const boundary =
      options.boundary && findBoundary(options.boundary, options.forms, compilers, (source, compiler) => check(source, compiler, 1));
    const failures = rows
      .filter((row) => row.outcome !== expectedOutcome(row.source, boundary?.largest))
      .map((row) => `${describeSource(row.source)} on ${row.compiler}: ${row.outcome}: ${row.figures.errors.join(" | ").slice(0, 600)}`);
    if (boundary)
      failures.push(
        ...boundary.rows
          .filter((row) => row.outcome !== expectedOutcome(row.source, boundary.largest))
          .map((row) => `${describeSource(row.source)} on ${row.compiler}: ${row.outcome}`),
      );
    const targets = targetsOf(rows, compilers, boundary);
    const markdown = render(rows, boundary, targets, failures, options, loadBefore);
    return { rows, boundary, targets, failures, markdown };
  } finally {
    if (options.keep) options.log(`kept ${project.dir}`);
    else project.remove();
  }
}

function checkRow(project: Project, compiler: Compiler, source: GraphSource, repeat: number): TypeRow {
  const name = `${source.form}-${source.nodes}${source.typeLevelTopology ? "" : "-nosearch"}${source.orphan ? "-orphan" : ""}`;
  const text = graphSource(source);
  const runs = Array.from({ length: Math.max(1, repeat) }, () => checkSource(project, compiler, name, text));
  const checkTimes = runs.map((run) => run.checkTime);
  const median = [...runs].sort((a, b) => a.checkTime - b.checkTime)[runs.length >> 1] as CheckFigures;
  return { source, compiler: compiler.name, checkTimes, figures: median, outcome: outcomeOf(median.errors) };
}

function outcomeOf(errors: readonly string[]): Outcome {
  if (errors.length === 0) return "clean";
  if (errors.some((e) => e.includes("TS2589"))) return "TS2589";
  if (errors.some((e) => e.includes(TOO_DEEP_MESSAGE))) return "too deep: explicit message";
  if (errors.every((e) => e.includes(ORPHAN_MESSAGE))) return "orphan reported";
  return "unexpected errors";
}

/** What a check must end with, once the search's reach is known (below it, or without a search: clean). */
export function expectedOutcome(source: GraphSource, largest: number | undefined): Outcome {
  const searched = source.typeLevelTopology && (largest === undefined || source.nodes <= largest);
  if (!source.typeLevelTopology) return "clean";
  if (!searched) return "too deep: explicit message";
  return source.orphan ? "orphan reported" : "clean";
}

/**
 * Bisects, with the fastest compiler and the first form, for the largest chain size whose orphan is
 * still reported; then confirms on every compiler and form that the orphan is reported there and that
 * one node more gets the explicit message.
 */
function findBoundary(
  range: { readonly from: number; readonly to: number },
  forms: readonly GraphForm[],
  compilers: readonly Compiler[],
  check: (source: GraphSource, compiler: Compiler) => TypeRow,
): Boundary {
  const fastest = compilers[compilers.length - 1] as Compiler;
  const probe = (nodes: number): TypeRow => check({ form: forms[0] ?? "builder", nodes, typeLevelTopology: true, orphan: true }, fastest);
  let [lo, hi] = [range.from, range.to];
  if (probe(lo).outcome !== "orphan reported")
    throw new Error(`findBoundary: the search does not report the orphan at N=${lo}; nothing to bisect.`);
  if (probe(hi).outcome === "orphan reported") {
    // The whole range is covered: show the top of it on every compiler and form.
    const rows = forms.flatMap((form) =>
      compilers.map((compiler) => check({ form, nodes: hi, typeLevelTopology: true, orphan: true }, compiler)),
    );
    return { largest: hi, rows, coversRange: true };
  }
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (probe(mid).outcome === "orphan reported") lo = mid;
    else hi = mid;
  }
  const rows = forms.flatMap((form) =>
    compilers.flatMap((compiler) => [lo, lo + 1].map((nodes) => check({ form, nodes, typeLevelTopology: true, orphan: true }, compiler))),
  );
  return { largest: lo, rows, coversRange: false };
}

/** Check-time budgets by size and compiler (issue 9 at N=200, issue 18 at N=500, issue 35 for the 60-node agent graph). */
const BUDGETS: ReadonlyMap<number, ReadonlyMap<string, number>> = new Map([
  [
    AGENT_NODES,
    new Map([
      ["TS 7", 0.2],
      ["TS 6", 1.5],
    ]),
  ],
  [
    200,
    new Map([
      ["TS 7", 1.5],
      ["TS 6", 6],
    ]),
  ],
  [
    500,
    new Map([
      ["TS 7", 2],
      ["TS 6", 8],
    ]),
  ],
]);

function targetsOf(rows: readonly TypeRow[], compilers: readonly Compiler[], boundary: Boundary | undefined): TypesTarget[] {
  const budgeted = [...BUDGETS].flatMap(([nodes, budgets]) =>
    compilers.flatMap((compiler) => {
      const budget = budgets.get(compiler.name.slice(0, 4));
      return (
        rows
          .filter((row) => row.compiler === compiler.name && row.source.nodes === nodes && row.source.typeLevelTopology)
          // The agent graph's budget is its own, whatever the chain's sizes.
          .filter((row) => (row.source.form === "agent") === (nodes === AGENT_NODES))
          .map((row) => ({
            what: `type check, N=${nodes}, ${row.source.form}, reachability on, ${compiler.name}`,
            target: budget === undefined ? "–" : `≤ ${budget} s`,
            measured: `${row.figures.checkTime.toFixed(2)} s check (${spreadText(row.checkTimes)})`,
            met: budget === undefined ? undefined : row.figures.checkTime <= budget && row.outcome === "clean",
          }))
      );
    }),
  );
  const upTo1000 = [...rows, ...(boundary?.rows ?? [])].filter((row) => row.source.nodes <= 1000);
  const deep = upTo1000.filter((row) => row.outcome === "TS2589");
  return [
    ...budgeted,
    {
      what: "type check, N ≤ 1,000",
      target: "no TS2589",
      measured:
        upTo1000.length === 0 ? "–" : deep.length === 0 ? `no TS2589 in ${upTo1000.length} checks` : `TS2589 in ${deep.length} checks`,
      met: upTo1000.length === 0 ? undefined : deep.length === 0,
    },
    {
      what: "reach of the reachability search",
      target: "≥ 900 nodes",
      measured: boundary === undefined ? "–" : `N=${boundary.largest}${boundary.coversRange ? " (the top of the searched range)" : ""}`,
      met: boundary === undefined ? undefined : boundary.largest >= 900,
    },
  ];
}

function spreadText(times: readonly number[]): string {
  const sorted = [...times].sort((a, b) => a - b);
  return times.length === 1 ? "1 check" : `${sorted[0]?.toFixed(2)}–${sorted[sorted.length - 1]?.toFixed(2)} s over ${times.length} checks`;
}

function describeSource(source: GraphSource): string {
  return `${source.form} N=${source.nodes}${source.orphan ? " + orphan" : ""}${source.typeLevelTopology ? "" : " { typeLevelTopology: false }"}`;
}

function render(
  rows: readonly TypeRow[],
  boundary: Boundary | undefined,
  targets: readonly TypesTarget[],
  failures: readonly string[],
  options: TypesOptions,
  loadBefore: string,
): string {
  const rowCells = (row: TypeRow): string[] => [
    describeSource(row.source),
    row.compiler,
    `${row.figures.checkTime.toFixed(2)} s`,
    `${row.figures.totalTime.toFixed(2)} s`,
    row.figures.instantiations.toLocaleString("en-US"),
    `${(row.figures.memory / 1024).toFixed(0)} MiB`,
    row.figures.errors.length === 0
      ? row.outcome
      : `${row.outcome} (${row.figures.errors.length} error${row.figures.errors.length === 1 ? "" : "s"})`,
  ];
  const header = ["graph", "compiler", "check time", "total time", "instantiations", "memory", "outcome"];
  return [
    `Measured ${new Date().toISOString().slice(0, 10)} with \`npm run bench:types\`: each graph checked ${options.repeat}× with \`tsc --extendedDiagnostics\` ` +
      `(the row shows the check with the median check time). Graphs: a chain with a conditional back-edge every 10 nodes; the builder split into ` +
      `composed functions of ≤ 100 calls, and \`defineGraph\`. Each is checked alone in a temp project against the package's emitted declarations.`,
    "",
    ...machineLines(machineInfo()),
    `- Load average before: ${loadBefore}; after: ${loadAverage()}`,
    "",
    "### Targets",
    "",
    table(
      ["what", "target", "measured", "met?"],
      targets.map((t) => [t.what, t.target, t.measured, t.met === undefined ? "not measured" : t.met ? "met" : "**missed**"]),
    ),
    "",
    "### Check cost",
    "",
    table(header, rows.map(rowCells)),
    "",
    "### How far the reachability search reaches",
    "",
    boundary === undefined
      ? "Not measured (no boundary search in this run)."
      : boundary.coversRange
        ? [
            `The search still reports the orphan at N=${boundary.largest}, the top of the searched range (a deliberate orphan node, which only ` +
              `the search reports), on every compiler and form, without TS2589. Beyond ${"`MaxTypeLevelDepth`"} layers the explicit ` +
              `message is asserted by test/types/deep-graphs.test-d.ts.`,
            "",
            table(header, boundary.rows.map(rowCells)),
          ].join("\n")
        : [
            `Largest chain size the search still covers: **N=${boundary.largest}** (found by bisection with a deliberate orphan node, which only the ` +
              `search reports). One node more and the check fails with the explicit message ("the graph is ${TOO_DEEP_MESSAGE} …; ` +
              `call compile({ typeLevelTopology: false })"): never a silent pass.`,
            "",
            table(header, boundary.rows.map(rowCells)),
          ].join("\n"),
    "",
    failures.length === 0 ? "Every check ended as expected." : `**Unexpected outcomes:**\n\n${failures.map((f) => `- ${f}`).join("\n")}`,
  ].join("\n");
}
