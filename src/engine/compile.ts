/**
 * The compiler: validates a graph's definition (topology, implementations, interrupt names), builds the
 * frozen tables a run reads, and freezes the spec. `StateGraph.compile()`, `defineGraph` and `bindSpec`
 * all end here, so a definition is checked by one piece of code whichever way it was written.
 */
import { describeValue, quote } from "../_describe.js";
import { GraphValidationError, invalidArgument, type GraphProblem } from "../errors.js";
import { checkCompileOptions } from "../validate/compile-options.js";
import type { GraphSpec } from "../spec.js";
import { validateTopology } from "../validate/topology.js";
import { CompiledGraph, noThreadSettings, type ThreadCompileOptions } from "./compiled-graph.js";
import type { ExecutableGraph, GraphDefinition, NodeFunction, RouterFunction, Transition } from "./executable.js";
import type { Reducer } from "./reducers.js";
import { subgraphSpecOf } from "./subgraph-specs.js";
import type { ThreadSettings } from "./threads/types.js";
import { MemoryCacheStore, policyProblems, resolvePolicy, type NodePolicy, type ResolvedPolicy } from "./policies.js";
import { specHash } from "./spec-hash.js";
import { checkVersionOption } from "./threads/versions/graph-version.js";
import { checkMigrations } from "./threads/versions/migrations.js";
import { orderWarnings } from "./warnings.js";
import { compiledFieldChecks, compiledStateCheck, fieldSchemaProblems, schemaFields, stateSchemaProblems } from "./compile-state-schema.js";
import { brandGraph } from "./graph-brand.js";
import { loopProblems, loopWarnings } from "./loops.js";
import { checkDeclaredInterrupts } from "./declared-interrupts.js";

/**
 * Validates a definition and builds its compiled graph. Throws {@link GraphValidationError}
 * listing every problem. The builder's `compile()` calls this; so can code that builds graphs from data.
 *
 * @example
 * ```ts
 * const graph = compileGraph({ spec, nodes: { inc: (s) => ({ n: s.n + 1 }) }, routers: {}, reducers: {} });
 * ```
 */
export function compileGraph<S extends object = Record<string, unknown>>(
  given: GraphDefinition,
  options: ThreadCompileOptions = {},
): CompiledGraph<S> {
  checkCompileOptions(options, "compileGraph");
  const interrupts = checkDeclaredInterrupts(options.interrupts, "compileGraph");
  checkDefinition(given);
  const definition = withSchemaFields(given);
  const problems: GraphProblem[] = validateTopology(definition.spec);
  // A spec that is not spec-shaped (edges missing, say) cannot be checked any further.
  if (problems.some((p) => p.code === "INVALID_SPEC")) throw new GraphValidationError(problems, "compileGraph");
  problems.push(
    ...implementationProblems(definition.spec, definition),
    ...unknownInterrupts(definition, options),
    ...policyProblems(policiesOf(definition), defaultsOf(options)),
    ...unknownPolicyNodes(definition),
    ...stateSchemaProblems(definition.stateSchema),
    ...fieldSchemaProblems(definition.fieldSchemas, definition.spec.fields),
    ...loopProblems(definition),
  );
  if (problems.length > 0) throw new GraphValidationError(problems);
  const spec = freezeSpec(withSubgraphs(definition));
  const executable = buildExecutable(definition, options, spec);
  const compiled = new CompiledGraph<S>(
    spec,
    executable,
    [...orderWarnings(definition), ...loopWarnings(definition, spec)],
    threadSettings(options),
  );
  const { stamp, migrations } = executable;
  return brandGraph(compiled, { spec, stamp, migrations, stateSchema: definition.stateSchema, interrupts });
}

/**
 * A graph with a state schema and no `fields` knows its fields from the schema's JSON Schema (where the
 * library offers one): the spec records them, so unknown fields are refused at run time and exporters
 * that need every channel (LangGraph.js) have them.
 */
function withSchemaFields(definition: GraphDefinition): GraphDefinition {
  if (definition.spec.fields !== undefined) return definition;
  const fields = schemaFields(definition.stateSchema);
  return fields === undefined ? definition : { ...definition, spec: { ...definition.spec, fields } };
}

function checkDefinition(definition: unknown): void {
  const isTable = (value: unknown) => typeof value === "object" && value !== null && !Array.isArray(value);
  const tables = isTable(definition)
    ? (["spec", "nodes", "routers", "reducers"] as const).filter((name) => !isTable((definition as Record<string, unknown>)[name]))
    : ["definition"];
  if (tables.length > 0) {
    throw invalidArgument(
      `compileGraph: expected { spec, nodes, routers, reducers }, each an object; ${tables.join(", ")} ${tables.length === 1 ? "is" : "are"} not. Got ${describeValue(definition)}.`,
    );
  }
}

function unknownInterrupts(definition: GraphDefinition, options: ThreadCompileOptions): GraphProblem[] {
  const nodes = new Set(definition.spec.nodes);
  return (["interruptBefore", "interruptAfter"] as const).flatMap((option) =>
    (options[option] ?? [])
      .filter((node) => !nodes.has(node))
      .map(
        (node): GraphProblem => ({
          code: "UNKNOWN_NODE",
          node: String(node),
          message: `${option} names ${quote(node)}, which is not a node. Name declared nodes only.`,
        }),
      ),
  );
}

function threadSettings(options: ThreadCompileOptions): ThreadSettings {
  const { interruptBefore = [], interruptAfter = [], checkpointer } = options;
  if (interruptBefore.length === 0 && interruptAfter.length === 0 && checkpointer === undefined) return noThreadSettings;
  return {
    interruptBefore: new Set(interruptBefore),
    interruptAfter: new Set(interruptAfter),
    ...(checkpointer === undefined ? {} : { checkpointer }),
  };
}

/** The functions a definition names, by table; `reducers` only where the spec names a reducer by field. */
export interface ImplementationTables {
  readonly nodes: Readonly<Record<string, unknown>>;
  readonly routers: Readonly<Record<string, unknown>>;
  readonly reducers?: Readonly<Record<string, unknown>>;
}

/**
 * What is wrong with a definition's implementations: a node, a route or (when `tables.reducers` is
 * given) a reducer without a function; and, with `extras` (for `bindSpec`, whose implementations are a
 * table apart from the spec), a function for a node or a route the spec does not have. `compileGraph`
 * and `bindSpec` both ask this one function.
 */
export function implementationProblems(
  spec: {
    readonly nodes: readonly string[];
    readonly routes: readonly { readonly from: string }[];
    readonly reducers?: readonly { readonly field: string }[];
  },
  tables: ImplementationTables,
  extras = false,
): GraphProblem[] {
  const problems: GraphProblem[] = [];
  const implemented = (table: Readonly<Record<string, unknown>>, name: string): boolean =>
    Object.hasOwn(table, name) && typeof table[name] === "function";
  for (const node of spec.nodes) {
    if (!implemented(tables.nodes, node)) {
      problems.push({
        code: "MISSING_IMPLEMENTATION",
        node,
        message: `Node ${quote(node)} has no function. Pass a function (state, context) => update.`,
      });
    }
  }
  for (const route of spec.routes) {
    if (!implemented(tables.routers, route.from)) {
      problems.push({
        code: "MISSING_IMPLEMENTATION",
        node: route.from,
        message: `The route from ${quote(route.from)} has no router function. Pass a function (state, context) => routeKey.`,
      });
    }
  }
  const { reducers } = tables;
  if (reducers !== undefined) {
    for (const { field } of spec.reducers ?? []) {
      if (!implemented(reducers, field)) {
        problems.push({
          code: "MISSING_IMPLEMENTATION",
          node: field,
          message: `The reducer of ${quote(field)} has no function. Pass a function (current, update) => next.`,
        });
      }
    }
  }
  if (!extras) return problems;
  const declared = new Set(spec.nodes);
  const routed = new Set(spec.routes.map((route) => route.from));
  for (const node of Object.keys(tables.nodes).filter((name) => !declared.has(name))) {
    problems.push({
      code: "EXTRA_IMPLEMENTATION",
      node,
      message: `${quote(node)} is implemented but is not a node of the spec. Remove it, or add it to the spec.`,
    });
  }
  for (const node of Object.keys(tables.routers).filter((name) => !routed.has(name))) {
    problems.push({
      code: "EXTRA_IMPLEMENTATION",
      node,
      message: `A router is given for ${quote(node)}, which has no route in the spec. Remove it.`,
    });
  }
  return problems;
}

function policiesOf(definition: GraphDefinition): Readonly<Record<string, unknown>> {
  const { policies } = definition;
  return typeof policies === "object" && policies !== null ? policies : {};
}

/** compile()'s graph-wide `retry`, `timeout` and `errorHandler`, checked like a node's policy; `undefined` when none is set. */
function defaultsOf(options: ThreadCompileOptions): Pick<NodePolicy<never, unknown>, "retry" | "timeout" | "errorHandler"> | undefined {
  const { retry, timeout, errorHandler } = options;
  if (retry === undefined && timeout === undefined && errorHandler === undefined) return undefined;
  return {
    ...(retry === undefined ? {} : { retry }),
    ...(timeout === undefined ? {} : { timeout }),
    ...(errorHandler === undefined ? {} : { errorHandler }),
  };
}

function unknownPolicyNodes(definition: GraphDefinition): GraphProblem[] {
  const nodes = new Set(definition.spec.nodes);
  return Object.keys(policiesOf(definition))
    .filter((node) => !nodes.has(node))
    .map((node) => ({
      code: "INVALID_POLICY" as const,
      node,
      message: `A policy is given for ${quote(node)}, which is not a node. Name declared nodes only.`,
    }));
}

function buildExecutable(definition: GraphDefinition, options: ThreadCompileOptions, frozen: GraphSpec): ExecutableGraph {
  const { spec } = definition;
  const defaults = defaultsOf(options);
  const policies = new Map<string, ResolvedPolicy>();
  for (const node of spec.nodes) {
    const own = Object.hasOwn(policiesOf(definition), node) ? (policiesOf(definition)[node] as NodePolicy<never>) : undefined;
    const resolved = resolvePolicy(own, defaults);
    if (resolved !== undefined) policies.set(node, resolved);
  }
  const transitions = new Map<string, Transition>();
  for (const edge of spec.edges) transitions.set(edge.from, { kind: "edge", to: edge.to });
  for (const fanOut of spec.fanOuts ?? []) transitions.set(fanOut.from, { kind: "fanOut", to: Object.freeze([...fanOut.to]) });
  const joins = (spec.joins ?? []).map((join, index) => {
    for (const from of join.from) transitions.set(from, { kind: "join", join: index });
    return { sources: new Set(join.from), to: join.to };
  });
  for (const route of spec.routes) {
    const router = definition.routers[route.from] as RouterFunction<never>;
    transitions.set(route.from, { kind: "route", router, paths: Object.freeze({ ...route.paths }) });
  }
  const version = checkVersionOption(options.version, "compile");
  const ends = new Map((spec.ends ?? []).map((declared) => [declared.from, new Set(declared.to)] as const));
  const nodes = new Map<string, NodeFunction<unknown>>();
  for (const name of spec.nodes) nodes.set(name, definition.nodes[name] as NodeFunction<unknown>);
  const reducers = new Map<string, Reducer<unknown>>();
  for (const { field } of spec.reducers) reducers.set(field, definition.reducers[field] as Reducer<unknown>);
  const order = new Map(spec.nodes.map((name, index) => [name, index]));
  return {
    spec: frozen,
    nodes,
    transitions,
    joins,
    ends,
    order,
    reducers,
    fields: spec.fields ? new Set(spec.fields) : undefined,
    stateCheck: compiledStateCheck(definition.stateSchema),
    fieldChecks: compiledFieldChecks(definition.fieldSchemas),
    policies,
    cacheStore: options.cacheStore ?? new MemoryCacheStore(),
    specHash: specHash(frozen),
    stamp: Object.freeze({ version, specHash: specHash(frozen) }),
    migrations: checkMigrations(options.migrations, version, new Set(spec.nodes), "compile"),
    bounds: new Map((spec.bounds ?? []).map((bound) => [bound.node, { max: bound.max, exit: bound.exit }] as const)),
    deferred: new Set(spec.deferred),
  };
}

/** The spec, with `subgraphs` recorded for every node that runs a compiled graph. */
function withSubgraphs(definition: GraphDefinition): GraphSpec {
  const subgraphs = Object.fromEntries(
    definition.spec.nodes.flatMap((node) => {
      const child = subgraphSpecOf(definition.nodes[node]);
      return child === undefined ? [] : [[node, child]];
    }),
  );
  return Object.keys(subgraphs).length > 0 ? { ...definition.spec, subgraphs } : definition.spec;
}

function freezeSpec(spec: GraphSpec): GraphSpec {
  const frozen: GraphSpec = {
    nodes: Object.freeze([...spec.nodes]),
    edges: Object.freeze(spec.edges.map((e) => Object.freeze({ from: e.from, to: e.to }))),
    routes: Object.freeze(
      spec.routes.map((r) =>
        Object.freeze({
          from: r.from,
          router: r.router,
          paths: Object.freeze({ ...r.paths }),
          ...(r.sends ? { sends: true as const } : {}),
        }),
      ),
    ),
    ...(spec.fanOuts?.length
      ? { fanOuts: Object.freeze(spec.fanOuts.map((f) => Object.freeze({ from: f.from, to: Object.freeze([...f.to]) }))) }
      : {}),
    ...(spec.joins?.length
      ? { joins: Object.freeze(spec.joins.map((j) => Object.freeze({ from: Object.freeze([...j.from]), to: j.to }))) }
      : {}),
    ...(spec.ends?.length
      ? { ends: Object.freeze(spec.ends.map((e) => Object.freeze({ from: e.from, to: Object.freeze([...e.to]) }))) }
      : {}),
    ...(spec.bounds?.length
      ? {
          bounds: Object.freeze(
            spec.bounds.map((b) => Object.freeze({ node: b.node, max: b.max, ...(b.exit === undefined ? {} : { exit: b.exit }) })),
          ),
        }
      : {}),
    ...(spec.deferred?.length ? { deferred: Object.freeze([...spec.deferred]) } : {}),
    reducers: Object.freeze(spec.reducers.map((r) => Object.freeze({ field: r.field, reducer: r.reducer }))),
    ...(spec.fields ? { fields: Object.freeze([...spec.fields]) } : {}),
    // A child's spec is already frozen: it comes from its own compiled graph.
    ...(spec.subgraphs ? { subgraphs: Object.freeze({ ...spec.subgraphs }) } : {}),
  };
  return Object.freeze(frozen);
}
