/**
 * The graph a `tsg diagram`, `tsg paths` or `tsg check` reads: an example by name (`report`, `agent`,
 * `research`), or a user's module, `FILE#EXPORT` (`./dist/graph.js#triage`; `#default` when no `#`).
 * TypeScript sources (`.ts`, `.mts`, `.cts`) load through `tsx` when it is installed.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { buildAgentGraph, ScriptedModel } from "../examples/agent/index.js";
import { buildReportGraph } from "../examples/report/index.js";
import { buildResearchGraph } from "../examples/research/index.js";
import { checkSpecSchema, GraphValidationError, type CompiledGraph, type GraphProblem, type GraphSpec } from "../index.js";
import { UsageError } from "./io.js";
import { importUserModule, type GraphLoaders } from "./module-loader.js";
import { cut, LINE_LIMIT, quote } from "../inspect/echo.js";

export type { GraphLoaders, TsxApi } from "./module-loader.js";

/** The example graphs every graph command knows by name. */
export const EXAMPLE_GRAPHS = ["report", "agent", "research"] as const;

/** An example graph's name. */
export type ExampleGraph = (typeof EXAMPLE_GRAPHS)[number];

/** The positional argument's description, shared by the graph commands' help. */
export const GRAPH_ARGUMENT = `${EXAMPLE_GRAPHS.join(", ")}, or a module's export: ./dist/graph.js#triage (TypeScript with tsx installed)`;

/** A graph as a command reads it: its spec, or the problems that keep it from being a graph. */
export type GraphSource =
  | {
      readonly label: string;
      readonly spec: GraphSpec;
      readonly problems?: undefined;
      /** The compiled graph, when the module exported one (or a builder): what `tsg inspect` runs. */
      readonly graph?: CompiledGraph<object>;
      /**
       * The module's exports, when the graph came from a module: `tsg test` reads `exploration` there,
       * because loading a TypeScript module again (tsx) would run its top level a second time.
       */
      readonly exports?: Readonly<Record<string, unknown>>;
    }
  | { readonly label: string; readonly spec?: undefined; readonly problems: readonly GraphProblem[] };

/**
 * Reads the graph an argument names: an example, or `FILE#EXPORT`. Throws a {@link UsageError} (exit 2)
 * when the argument names no graph, the file or export does not exist, or the module fails to load.
 * A graph that does not validate (its module throws `GraphValidationError`, or its builder or spec has
 * problems) comes back with its `problems`.
 *
 * @example
 * ```ts
 * const { spec } = await loadGraph("./dist/graph.js#triage");
 * ```
 */
export async function loadGraph(argument: string, loaders: GraphLoaders = {}): Promise<GraphSource> {
  if ((EXAMPLE_GRAPHS as readonly string[]).includes(argument)) return { label: argument, spec: exampleSpec(argument as ExampleGraph) };
  const hash = argument.lastIndexOf("#");
  const file = hash < 0 ? argument : argument.slice(0, hash);
  const exportName = hash < 0 ? "default" : argument.slice(hash + 1);
  if (hash < 0 && !/[./\\]/.test(argument)) {
    throw new UsageError(
      `unknown graph ${quote(argument)}: name an example (${EXAMPLE_GRAPHS.join(", ")}) or a module's export, e.g. ./dist/graph.js#triage.`,
    );
  }
  if (file === "" || exportName === "") throw new UsageError(`${quote(argument)} must be FILE#EXPORT, e.g. ./dist/graph.js#triage.`);
  const cwd = loaders.cwd ?? process.cwd();
  const path = resolve(cwd, file);
  if (!existsSync(path)) throw new UsageError(`cannot find the module ${cut(file)} (looked for ${cut(path)}).`);
  let module: Record<string, unknown>;
  try {
    module = await importUserModule(file, path, loaders);
  } catch (error) {
    if (isInstance(error, UsageError)) throw error;
    if (isInstance(error, GraphValidationError)) return { label: argument, problems: error.problems };
    throw new UsageError(`the module ${cut(file)} failed to load: ${firstLine(error)}`);
  }
  if (!Object.hasOwn(module, exportName)) {
    const names = Object.keys(module)
      .filter((name) => name !== "__esModule")
      .sort();
    const declaration = exportName === "default" ? "export default builder.compile()" : `export const ${exportName} = builder.compile()`;
    throw new UsageError(
      `the module ${cut(file)} has no export ${quote(exportName)}; it exports ${names.length === 0 ? "nothing" : names.join(", ")}. ` +
        `Export the compiled graph under that name (${cut(declaration)}), or name another export after "#".`,
    );
  }
  const source = readExport({ label: argument, file, exportName }, module);
  return source.problems === undefined ? { ...source, exports: module } : source;
}

/** Which export a command reads, for its messages. */
interface ExportRef {
  readonly label: string;
  readonly file: string;
  readonly exportName: string;
}

/**
 * Reads the export as a graph. Everything that runs the module's code (a getter, a Proxy's trap,
 * `compile()`) runs here, and the spec comes out as a plain copy, so what the module throws is reported
 * as its own fault (exit 2, naming the module, the export and the message), never as a bug of tsg.
 */
function readExport(ref: ExportRef, module: Record<string, unknown>): GraphSource {
  const step = { now: "reading it" };
  try {
    return graphOf(ref.label, module[ref.exportName], step);
  } catch (error) {
    if (isInstance(error, UsageError)) throw error;
    if (isInstance(error, GraphValidationError)) return { label: ref.label, problems: error.problems };
    throw new UsageError(
      `the export ${quote(ref.exportName)} of the module ${cut(ref.file)} threw while tsg was ${step.now}: ${firstLine(error)}`,
    );
  }
}

/**
 * The spec of an example graph. Only the shape is read: the options and the model behind the nodes do
 * not change it.
 *
 * @example
 * ```ts
 * exampleSpec("research").joins; // [{ from: ["web", "papers", "internal"], to: "synthesize" }]
 * ```
 */
export function exampleSpec(graph: ExampleGraph): GraphSpec {
  switch (graph) {
    case "report":
      return buildReportGraph().spec;
    case "agent":
      return buildAgentGraph(new ScriptedModel({ city: "Tokyo", task: "convert", language: "en" })).spec;
    case "research":
      return buildResearchGraph().spec;
  }
}

/**
 * A compiled graph (its `spec`), a builder (compiled here, so its problems are listed), or a spec as data.
 * `step` says what is being read, for the message when the module's code throws.
 */
function graphOf(label: string, value: unknown, step: { now: string }): GraphSource {
  if (typeof value === "object" && value !== null) {
    step.now = "reading its compile";
    const { compile } = value as { compile?: unknown };
    if (typeof compile === "function") {
      step.now = "calling its compile()";
      const compiled = compile.call(value) as unknown;
      step.now = "reading the compiled graph's spec";
      const spec = specOrProblems(label, (compiled as { spec?: unknown } | null)?.spec);
      step.now = "reading the compiled graph's methods";
      return spec.spec !== undefined && isRunnable(compiled) ? { ...spec, graph: compiled } : spec;
    }
    step.now = "reading its spec";
    const { spec } = value as { spec?: unknown };
    if (typeof spec === "object" && spec !== null) {
      step.now = "copying its spec";
      const source = specOrProblems(label, spec);
      step.now = "reading its methods";
      return source.spec !== undefined && isRunnable(value) ? { ...source, graph: value } : source;
    }
    step.now = "reading its nodes";
    if (Array.isArray((value as { nodes?: unknown }).nodes)) {
      step.now = "copying it as a spec";
      return specOrProblems(label, value);
    }
  }
  throw new UsageError(
    `${cut(label)} is not a graph: export a compiled graph (builder.compile()), a StateGraph builder, or a GraphSpec; got ${describeValue(value)}.`,
  );
}

/**
 * A compiled graph, by its shape: a module may load its own copy of typed-state-graph (another install,
 * or the sources under tsx), whose class is not this one's.
 */
function isRunnable(value: unknown): value is CompiledGraph<object> {
  const graph = value as { invoke?: unknown; stream?: unknown; updateState?: unknown; spec?: unknown };
  return typeof graph.invoke === "function" && typeof graph.stream === "function" && typeof graph.updateState === "function";
}

/**
 * The spec as a plain copy (a spec is JSON data: the copy runs every getter and trap once, here), or
 * its problems.
 */
function specOrProblems(label: string, spec: unknown): GraphSource {
  let copy: unknown;
  try {
    copy = spec === undefined ? undefined : JSON.parse(JSON.stringify(spec));
  } catch (error) {
    if (!isStackOverflow(error)) throw error;
    // Too deep for JSON's recursive copy (subgraphs nested thousands deep): checkSpecSchema, which stops
    // at the nesting limit, says why on the value itself. A spec it finds nothing wrong with cannot be that
    // deep, so the overflow is then the module's own (a getter recursing) and reported as such.
    const problems = checkSpecSchema(spec);
    if (problems.length === 0) throw error;
    return { label, problems };
  }
  const problems = checkSpecSchema(copy);
  return problems.length > 0 ? { label, problems } : { label, spec: copy as GraphSpec };
}

/** V8's "Maximum call stack size exceeded", which JSON.stringify throws on a value nested past the stack. */
function isStackOverflow(error: unknown): boolean {
  return error instanceof RangeError && /call stack/i.test(error.message);
}

/** `instanceof` that survives a thrown Proxy whose `getPrototypeOf` trap throws. */
function isInstance<T>(value: unknown, type: abstract new (...args: never[]) => T): value is T {
  try {
    return value instanceof type;
  } catch {
    return false;
  }
}

function firstLine(error: unknown): string {
  let text: string;
  try {
    text = error instanceof Error ? error.message : String(error);
  } catch {
    text = "a value that cannot be printed was thrown";
  }
  return cut(text.split("\n")[0] ?? "", LINE_LIMIT);
}

function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object with no spec" : typeof value;
}
