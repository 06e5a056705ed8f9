/**
 * A vitest file from an exploration's coverage: one test per planned path some run took, replaying that
 * run's input, node outcomes and answers with `runScenario` (deterministic: no fast-check, no model),
 * and one `it.todo` per planned path no run took. Plain code a user commits and edits.
 */
import { formatPath } from "../../coverage/index.js";
import { Command } from "../../engine/index.js";
import { InvalidOptionError } from "../../errors.js";
import type { ExplorationReport } from "./types.js";

/**
 * What {@link emitVitest} writes a file from.
 *
 * @example
 * ```ts
 * const file: VitestFile<ReportState> = { title: "report", setup: 'import { g as graph } from "./g.js";', command: "tsg test ./g.ts#g --emit vitest", runs: 100, coverage };
 * ```
 */
export interface VitestFile<S> {
  /** The `describe` title: the graph's name. */
  readonly title: string;
  /** Code that binds `graph` (imports, and a call if the graph is built). */
  readonly setup: string;
  /** The command that wrote the file, for its header. */
  readonly command: string;
  /** How many runs the exploration made (said in each `it.todo`). */
  readonly runs: number;
  readonly coverage: NonNullable<ExplorationReport<S>["coverage"]>;
}

/**
 * The text of a vitest file for an exploration's coverage (see {@link VitestFile}).
 *
 * @throws InvalidOptionError when a recorded value cannot be written as code (a function, a class
 * instance other than `Error` and `Command`, a symbol).
 * @example
 * ```ts
 * writeFileSync("report.paths.test.ts", emitVitest({ title: "report", setup, command, runs: 100, coverage: report.coverage }));
 * ```
 */
export function emitVitest<S>(file: VitestFile<S>): string {
  const tests = file.coverage.feasible.map(({ path, input, outcomes, answers }) => {
    const scenario = [`input: ${code(input)}`];
    if (Object.keys(outcomes).length > 0) scenario.push(`outcomes: ${code(outcomes)}`);
    if (answers.length > 0) scenario.push(`answers: ${code(answers)}`);
    return [
      `  it(${code(`${path.name}: ${formatPath(path)}`)}, async () => {`,
      `    const run = await runScenario(graph, { ${scenario.join(", ")} });`,
      "    expect(run.failure).toBeUndefined();",
      `    expect(run.trace).toEqual(${code(path.trace)});`,
      `    expect(run.routes.map(({ from, key }) => \`\${from} [\${key}]\`)).toEqual(${code(path.routes.map(({ from, key }) => `${from} [${key}]`))});`,
      "  });",
    ].join("\n");
  });
  const todos = file.coverage.notReached.map(
    (path) => `  it.todo(${code(`${path.name}: not reached in ${file.runs} runs: ${formatPath(path)}`)});`,
  );
  const usesCommand = /new Command\(/.test(tests.join("\n"));
  return [
    `// Written by \`${file.command}\`: one test per planned path that exploration found a run for, replaying`,
    "// that run's input, node outcomes and answers (no fast-check, no model, no network), and one todo per",
    "// planned path no run took. Edit it freely: it is plain test code.",
    'import { describe, expect, it } from "vitest";',
    ...(usesCommand ? ['import { Command } from "typed-state-graph";'] : []),
    'import { runScenario } from "typed-state-graph/testing";',
    file.setup,
    "",
    `describe(${code(`${file.title}: planned paths`)}, () => {`,
    [...tests, ...todos].join("\n\n"),
    "});",
    "",
  ].join("\n");
}

/** A recorded value as a TypeScript expression. */
function code(value: unknown): string {
  if (value === undefined) return "undefined";
  if (value === null || typeof value === "boolean" || typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number") return Object.is(value, -0) ? "-0" : String(value);
  if (value instanceof Error) return `new Error(${JSON.stringify(value.message)})`;
  if (value instanceof Command) {
    const { resume, update, goto } = value as { resume?: unknown; update?: unknown; goto?: unknown };
    const fields = Object.entries({ resume, update, goto }).filter(([, field]) => field !== undefined);
    return `new Command({ ${fields.map(([name, field]) => `${name}: ${code(field)}`).join(", ")} })`;
  }
  if (Array.isArray(value)) return `[${value.map(code).join(", ")}]`;
  if (typeof value === "object" && (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null)) {
    const entries = Object.entries(value).map(
      ([key, field]) => `${/^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key)}: ${code(field)}`,
    );
    return entries.length === 0 ? "{}" : `{ ${entries.join(", ")} }`;
  }
  throw new InvalidOptionError(
    `emitVitest: a recorded value (${typeof value === "object" ? (value.constructor?.name ?? "an object") : typeof value}) cannot be written as code; record JSON values, Errors and Commands only.`,
  );
}
