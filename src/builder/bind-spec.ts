/**
 * `bindSpec(spec, implementations)`: a graph whose topology is plain data (written in TypeScript, or
 * loaded from JSON) bound to the functions that implement it. A TypeScript spec is checked at compile
 * time; every spec is checked at run time, schema first, then topology, through the same builder as
 * the other forms.
 */
import { implementationProblems as sharedImplementationProblems } from "../engine/_kernel.js";
import { append, mergeById, replace, sum, union, type AnyReducer, type CompiledGraph, type NodePolicy } from "../engine/index.js";
import { nodeOptions } from "./node-options.js";
import { describeValue, quote } from "../_describe.js";
import { GraphValidationError, invalidArgument, type GraphProblem } from "../errors.js";
import type { GraphSpec } from "../spec.js";
import { checkSpecSchema } from "../validate/spec-schema.js";
import { validateTopology } from "../validate/topology.js";
import { looseBuilder } from "./define-graph.js";
import type { BindableSpec, CheckedImplementations, CheckedSpec, Implementations, StateOfImplementations } from "./define-types.js";

const builtInReducers: Readonly<Record<string, AnyReducer>> = { append, replace, sum, union, mergeById };

/**
 * Binds a spec to its implementations and compiles it. A spec written in TypeScript (`as const`) is
 * checked at compile time: every node and route implemented, nothing extra, routers returning exactly
 * the spec's keys. A spec typed `unknown` (parsed JSON) is checked at run time only. Built-in reducer
 * names (`append`, `sum`, …) resolve by themselves; any other reducer comes from
 * `implementations.reducers`. Throws `GraphValidationError` listing every problem: schema, missing or
 * extra implementations, topology.
 *
 * @example
 * ```ts
 * const spec = {
 *   nodes: ["inc"],
 *   edges: [{ from: START, to: "inc" }],
 *   routes: [{ from: "inc", paths: { again: "inc", done: END } }],
 * } as const;
 * const graph = bindSpec(spec, {
 *   nodes: { inc: (s: { n: number }) => ({ n: s.n + 1 }) },
 *   routers: { inc: (s: { n: number }) => (s.n < 3 ? "again" : "done") },
 * });
 * ```
 */
export function bindSpec<const Sp, const Impl extends Implementations>(
  spec: Sp & CheckedSpec<Sp>,
  implementations: Impl & (Sp extends BindableSpec ? CheckedImplementations<Sp, Impl> : unknown),
): Sp extends BindableSpec ? CompiledGraph<StateOfImplementations<Impl>> : CompiledGraph<Record<string, unknown>>;
export function bindSpec(spec: unknown, implementations: Implementations): CompiledGraph<never> {
  const schemaProblems = checkSpecSchema(spec);
  if (schemaProblems.length > 0) throw new GraphValidationError(schemaProblems, "bindSpec");
  const data = spec as BindableSpec;
  const tables = implementationTables(implementations);
  // Every problem at once: the topology's too, so fixing the implementations does not reveal more.
  const problems = [...implementationProblems(data, tables), ...validateTopology(asGraphSpec(data))];
  if (problems.length > 0) throw new GraphValidationError(problems, "bindSpec");

  const reducers = Object.fromEntries(
    (data.reducers ?? []).map((r) => [r.field, ownValue(tables.reducers, r.field) ?? ownValue(builtInReducers, r.reducer)]),
  );
  let builder = looseBuilder({ reducers, ...(data.fields ? { fields: [...data.fields] } : {}) });
  const policies = (implementations.policies ?? {}) as Readonly<Record<string, NodePolicy<never>>>;
  const ends = new Map((data.ends ?? []).map((declared) => [declared.from, declared.to]));
  for (const node of data.nodes)
    builder = builder.addNode(node, ownValue(tables.nodes, node), nodeOptions(ownValue(policies, node), ends.get(node)));
  for (const edge of data.edges) builder = builder.addEdge(edge.from, edge.to);
  for (const fanOut of data.fanOuts ?? []) builder = builder.addEdge(fanOut.from, fanOut.to);
  for (const join of data.joins ?? []) builder = builder.addEdge(join.from, join.to);
  for (const route of data.routes) {
    builder = builder.addConditionalEdges(
      route.from,
      ownValue(tables.routers, route.from),
      route.sends ? Object.keys(route.paths) : route.paths,
    );
  }
  return builder.compile({ typeLevelTopology: false });
}

type FunctionTable = Readonly<Record<string, unknown>>;

/** The three tables of `implementations`, checked to be objects (`routers` and `reducers` may be omitted). */
function implementationTables(implementations: unknown): { nodes: FunctionTable; routers: FunctionTable; reducers: FunctionTable } {
  const table = (value: unknown, name: string, optional: boolean): FunctionTable => {
    if (value === undefined && optional) return {};
    if (typeof value === "object" && value !== null && !Array.isArray(value)) return value as FunctionTable;
    throw invalidArgument(
      `bindSpec: implementations${name} must be an object { name: fn }; got ${describeValue(value)}. ` +
        `Pass { nodes: { name: fn }, routers?: { source: fn }, reducers?: { field: fn } }.`,
    );
  };
  const given = table(implementations, "", false);
  return {
    nodes: table(given["nodes"], ".nodes", false),
    routers: table(given["routers"], ".routers", true),
    reducers: table(given["reducers"], ".reducers", true),
  };
}

/**
 * Missing and extra implementations, asked of the compiler's own check (the rule `compileGraph` applies),
 * plus the reducers the spec names that are neither built in nor given.
 */
function implementationProblems(data: BindableSpec, tables: ReturnType<typeof implementationTables>): GraphProblem[] {
  const problems = sharedImplementationProblems(data, { nodes: tables.nodes, routers: tables.routers }, true);
  for (const { field, reducer } of data.reducers ?? []) {
    if (typeof ownValue(tables.reducers, field) !== "function" && ownValue(builtInReducers, reducer) === undefined) {
      problems.push({
        code: "MISSING_IMPLEMENTATION",
        node: field,
        message: `the reducer ${quote(reducer)} of ${quote(field)} is not built in; pass it as implementations.reducers[${quote(field)}].`,
      });
    }
  }
  return problems;
}

/** `table[key]` when `table` has it as its own: `toString` or `constructor` must never resolve to Object.prototype's. */
function ownValue<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/** The topology as validation reads it (a bindable spec may omit router names and reducers; subgraphs are checked when bound). */
function asGraphSpec({ subgraphs: _children, ...data }: BindableSpec): GraphSpec {
  return {
    ...data,
    routes: data.routes.map((route) => ({
      from: route.from,
      router: route.router ?? "router",
      paths: route.paths,
      ...(route.sends ? { sends: true as const } : {}),
    })),
    reducers: data.reducers ?? [],
  };
}
