/**
 * Shared arbitraries and settings of the property suite.
 *
 * Runs: each property has a small default (the whole suite takes a few seconds); `PROPERTY_RUNS=N`
 * runs every property N times. Replay: a failure prints `{ seed, path }`; run that one test again with
 * `PROPERTY_SEED=<seed> PROPERTY_PATH=<path> npx vitest run test/properties -t "<test name>"`.
 */
import fc from "fast-check";
import { append, mergeById, replace, Send, sum, union, type AnyReducer, type GraphDefinition, type GraphSpec } from "../../src/index.js";
import { arbitraryGraphSpec } from "../../src/testing/index.js";

/** The fast-check parameters the suite sets; assignable to `fc.Parameters` of any property. */
export interface PropertyParams {
  readonly numRuns: number;
  readonly seed?: number;
  readonly path?: string;
  readonly endOnFailure?: boolean;
}

/** fast-check parameters: `defaultRuns` unless `PROPERTY_RUNS` says otherwise, and a replayed seed/path. */
export function propertyParams(defaultRuns: number): PropertyParams {
  const runs = process.env["PROPERTY_RUNS"];
  const numRuns = runs === undefined || runs === "" ? defaultRuns : Number(runs);
  if (!Number.isInteger(numRuns) || numRuns < 1)
    throw new RangeError(`PROPERTY_RUNS must be a positive integer; got ${JSON.stringify(runs)}.`);
  const seed = process.env["PROPERTY_SEED"];
  const path = process.env["PROPERTY_PATH"];
  return {
    numRuns,
    ...(seed ? { seed: Number(seed) } : {}),
    ...(path ? { path, endOnFailure: true } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// Values

/**
 * JSON values, without `-0`: JSON cannot carry it, and `union` dedupes a top-level `-0` with `0` but
 * keeps `{ a: -0 }` apart from `{ a: 0 }`, so its set-commutativity holds only without `-0`.
 */
export const json: fc.Arbitrary<unknown> = fc.jsonValue().map((value) => JSON.parse(JSON.stringify(value)) as unknown);

/** A JSON-shaped state. */
export const jsonState: fc.Arbitrary<Record<string, unknown>> = fc.dictionary(fc.constantFrom("a", "b", "c", "d", "e"), json, {
  maxKeys: 5,
});

/** Items `mergeById` merges, with unique ids within one array and few distinct ids across arrays. */
export const identifiedItems = fc.uniqueArray(
  fc.record(
    { id: fc.oneof(fc.integer({ min: 0, max: 4 }), fc.constantFrom("a", "b", "1")), v: fc.integer({ min: 0, max: 3 }) },
    { noNullPrototype: true },
  ),
  { selector: (item) => item.id, maxLength: 5 },
);

// ---------------------------------------------------------------------------------------------
// Random mutations (isolation)

/** One mutation; `target` picks the container (the root or a nested object/array) it applies to. */
export interface Mutation {
  readonly target: number;
  readonly op: "set" | "delete" | "push" | "clear" | "replace-nested";
  readonly key: string;
  readonly value: unknown;
}

export const mutations: fc.Arbitrary<Mutation[]> = fc.array(
  fc.record({
    target: fc.nat(),
    op: fc.constantFrom("set", "delete", "push", "clear", "replace-nested"),
    key: fc.constantFrom("n", "log", "tags", "items", "last", "a", "0"),
    value: json,
  }),
  { minLength: 1, maxLength: 4 },
);

/** Applies mutations in place to every kind of container it finds under `root`. */
export function mutate(root: unknown, ops: readonly Mutation[]): void {
  for (const { target, op, key, value: generated } of ops) {
    // A fresh copy each time: inserting one object twice could make a container contain itself.
    const value = structuredClone(generated);
    const containers = containersOf(root);
    const container = containers[target % Math.max(containers.length, 1)];
    if (container === undefined) return;
    if (Array.isArray(container)) {
      if (op === "push") container.push(value);
      else if (op === "clear") container.length = 0;
      else if (op === "delete") container.pop();
      else container[0] = op === "replace-nested" ? { nested: [value] } : value;
    } else {
      const record = container as Record<string, unknown>;
      if (op === "clear") for (const k of Object.keys(record)) delete record[k];
      else if (op === "delete") delete record[key];
      else if (op === "push") record[key] = [value];
      else record[key] = op === "replace-nested" ? { nested: [value] } : value;
    }
  }
}

function containersOf(value: unknown, out: object[] = []): object[] {
  if (typeof value !== "object" || value === null) return out;
  out.push(value);
  for (const child of Object.values(value)) containersOf(child, out);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Runnable random graphs, as data (so a counterexample prints as a readable plan)

export const fieldNames = ["n", "log", "tags", "items", "last"] as const;
export type Field = (typeof fieldNames)[number];

/** Names LangGraph.js accepts (no `|` or `:`, not a field or an Object.prototype member), which most generated names are. */
export const exportable = (name: string): boolean =>
  /^[a-z][a-z0-9_]*$/.test(name) && !(fieldNames as readonly string[]).includes(name) && !(name in Object.prototype);

export const builtins = { append, replace, sum, union, mergeById } as const;
export type BuiltinName = keyof typeof builtins;

/** The built-ins that fit each field's values; "none" replaces. */
const reducerChoices: Record<Field, readonly (BuiltinName | "none")[]> = {
  n: ["sum", "replace", "none"],
  log: ["append", "union", "replace", "none"],
  tags: ["union", "append", "none"],
  items: ["mergeById", "append", "union", "none"],
  last: ["replace", "none"],
};

/** When a node or router misbehaves: once the state's `drive` number reaches `atLeast`. */
export interface Failure<How extends string> {
  readonly atLeast: number;
  readonly how: How;
}

/** What a node writes to one field; `wrong` writes a value of the wrong type (a reducer then throws). */
export interface Write {
  readonly field: Field;
  readonly k: number;
  readonly wrong: boolean;
}

export interface NodePlan {
  readonly writes: readonly Write[];
  readonly async: boolean;
  /** How many microtasks an async node waits before it settles: parallel nodes finish in varied orders. */
  readonly hops: number;
  readonly failure: Failure<"throw" | "reject" | "null" | "array" | "stray-field"> | null;
  /**
   * A retry policy, and how many first attempts throw before one succeeds (always fewer than the
   * attempts allowed, and never on a node that also fails for good: which of two failing siblings is
   * reported would then depend on timing).
   */
  readonly retry: { readonly maxAttempts: number; readonly flaky: number } | null;
}

export interface RouterPlan {
  readonly a: number;
  readonly b: number;
  readonly c: number;
  /**
   * In parallel graphs: 3 lets a path-map router return two keys at once; a list router returns
   * 0 to 3 destinations, as Sends (each with its own input) when `list` is odd.
   */
  readonly list: number;
  readonly failure: Failure<"throw" | "unknown-key" | "number"> | null;
}

/** A random graph and one run of it, as data. */
export interface GraphPlan {
  /** Whether the spec may fan out, join or route to several nodes (and routers return lists and Sends). */
  readonly parallel: boolean;
  readonly spec: GraphSpec;
  readonly nodes: ReadonlyArray<readonly [string, NodePlan]>;
  readonly routers: ReadonlyArray<readonly [string, RouterPlan]>;
  readonly input: Record<string, unknown>;
  readonly maxSteps: number;
}

const small = fc.integer({ min: 0, max: 4 });
const rarely = fc.integer({ min: 0, max: 11 }).map((x) => x === 0);

/**
 * A failure plan, or `null`. fast-check's `option` gives `null` with probability 1/`freq` (sequential
 * graphs: freq 4, so most nodes and routers fail once the run drives them far enough); `rare` gives
 * `null` three times in four, since a superstep runs several nodes and routers at once.
 */
function failureOf<T>(failure: fc.Arbitrary<T>, rare: boolean): fc.Arbitrary<T | null> {
  return rare ? fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: failure }) : fc.option(failure, { freq: 4 });
}

/** A node's behaviour; `rare` makes failing nodes rarer. */
const nodePlanWith = (rare: boolean): fc.Arbitrary<NodePlan> =>
  fc
    .record({
      writes: fc.uniqueArray(fc.record({ field: fc.constantFrom(...fieldNames), k: small, wrong: rarely }), {
        selector: (w) => w.field,
        maxLength: 4,
      }),
      async: fc.boolean(),
      hops: fc.integer({ min: 0, max: 3 }),
      failure: failureOf(
        fc.record({ atLeast: fc.integer({ min: 0, max: 12 }), how: fc.constantFrom("throw", "reject", "null", "array", "stray-field") }),
        rare,
      ),
      retry: fc.option(
        fc
          .integer({ min: 2, max: 3 })
          .chain((maxAttempts) =>
            fc.record({ maxAttempts: fc.constant(maxAttempts), flaky: fc.integer({ min: 0, max: maxAttempts - 1 }) }),
          ),
        { freq: 3 },
      ),
    })
    .map((plan) => (plan.retry === null ? plan : { ...plan, failure: null }));

/** A router's behaviour; `rare` makes failing routers rarer. */
const routerPlanWith = (rare: boolean): fc.Arbitrary<RouterPlan> =>
  fc.record({
    a: small,
    b: small,
    c: small,
    list: fc.integer({ min: 0, max: 3 }),
    failure: failureOf(
      fc.record({ atLeast: fc.integer({ min: 0, max: 12 }), how: fc.constantFrom("throw", "unknown-key", "number") }),
      rare,
    ),
  });

/**
 * A field's reducer. In parallel graphs mostly a real one: two nodes of one superstep writing a field
 * without a reducer is a conflict, which would otherwise end most runs in their first wide superstep.
 */
function reducerOf(field: Field, parallel: boolean): fc.Arbitrary<BuiltinName | "none"> {
  const any = fc.constantFrom(...reducerChoices[field]);
  const real = reducerChoices[field].filter((choice) => choice !== "none");
  if (!parallel || real.length === 0) return any;
  return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...real) }, { weight: 1, arbitrary: any });
}

const fieldValue: Record<Field, fc.Arbitrary<unknown>> = {
  n: fc.integer({ min: -3, max: 3 }),
  log: fc.array(fc.constantFrom("x", "y"), { maxLength: 2 }),
  tags: fc.array(fc.constantFrom("t0", "t1"), { maxLength: 2 }),
  items: fc.uniqueArray(fc.record({ id: small, by: fc.constant("input") }, { noNullPrototype: true }), {
    selector: (i) => i.id,
    maxLength: 2,
  }),
  last: fc.oneof(fc.string({ maxLength: 3 }), fc.constant(null)),
};

/**
 * Random valid graphs (cycles included), deterministic routers driven by the state, built-in reducers.
 * With `parallel`, the graphs also fan out, join and route to several nodes, and their routers return
 * lists of keys and Sends.
 */
export function graphPlan(options: { readonly maxNodes?: number; readonly parallel?: boolean } = {}): fc.Arbitrary<GraphPlan> {
  const parallel = options.parallel ?? false;
  return fc
    .record({
      spec: arbitraryGraphSpec({
        kind: "valid",
        maxNodes: options.maxNodes ?? (parallel ? 6 : 5),
        ...(parallel ? { minNodes: 3, parallel } : {}),
      }),
      reducers: fc.record({
        n: reducerOf("n", parallel),
        log: reducerOf("log", parallel),
        tags: reducerOf("tags", parallel),
        items: reducerOf("items", parallel),
        last: reducerOf("last", parallel),
      }),
      declareFields: fc.boolean(),
      input: fc.record(fieldValue, { requiredKeys: [], noNullPrototype: true }),
      maxSteps: parallel ? fc.integer({ min: 2, max: 20 }) : fc.integer({ min: 1, max: 15 }),
    })
    .chain(({ spec, reducers, declareFields, input, maxSteps }) => {
      const routeSources = spec.routes.map((route) => route.from);
      return fc
        .tuple(
          // Parallel runs touch more nodes and routers per superstep: each fails more rarely, so that runs get far.
          fc.array(nodePlanWith(parallel), { minLength: spec.nodes.length, maxLength: spec.nodes.length }),
          fc.array(routerPlanWith(parallel), { minLength: routeSources.length, maxLength: routeSources.length }),
        )
        .map(
          ([nodes, routers]): GraphPlan => ({
            parallel,
            spec: {
              ...spec,
              reducers: fieldNames.flatMap((field) => (reducers[field] === "none" ? [] : [{ field, reducer: reducers[field] }])),
              ...(declareFields ? { fields: [...fieldNames] } : {}),
            },
            nodes: spec.nodes.map((name, i) => [name, nodes[i] as NodePlan] as const),
            routers: routeSources.map((source, i) => [source, routers[i] as RouterPlan] as const),
            input,
            maxSteps,
          }),
        );
    });
}

/** Random graphs LangGraph.js can hold: exportable node names, and the fields declared (it keeps only declared keys). */
export function exportablePlan(options: { readonly maxNodes?: number } = {}): fc.Arbitrary<GraphPlan> {
  return graphPlan(options)
    .filter((plan) => plan.spec.nodes.every(exportable))
    .map((plan) => ({ ...plan, spec: { ...plan.spec, fields: [...fieldNames] } }));
}

/** The number a state drives routers and writes with: changes as the run goes on. */
export function drive(state: Record<string, unknown>): number {
  const n = typeof state["n"] === "number" && Number.isFinite(state["n"]) ? Math.abs(state["n"]) : 0;
  const log = Array.isArray(state["log"]) ? state["log"].length : 0;
  return n + log;
}

/** The functions a plan describes: fresh ones per call, so a stateful wrapper starts from zero. */
export function definitionOf(plan: GraphPlan): GraphDefinition {
  const nodes = Object.fromEntries(plan.nodes.map(([name, node]) => [name, nodeFunction(name, node)]));
  const routers = Object.fromEntries(
    plan.routers.map(([source, router]) => {
      const route = plan.spec.routes.find((r) => r.from === source);
      const shape = !plan.parallel ? "one" : route?.sends === true ? "list" : "keys";
      return [source, routerFunction(Object.keys(route?.paths ?? {}), router, shape)];
    }),
  );
  const reducers: Record<string, AnyReducer> = {};
  for (const { field, reducer } of plan.spec.reducers) reducers[field] = builtins[reducer as BuiltinName];
  const policies = Object.fromEntries(
    plan.nodes.flatMap(([name, node]) =>
      node.retry === null ? [] : [[name, { retry: { maxAttempts: node.retry.maxAttempts, initialInterval: 1, jitter: false } }]],
    ),
  );
  return { spec: plan.spec, nodes, routers, reducers, policies };
}

function nodeFunction(name: string, plan: NodePlan): (state: Record<string, unknown>, context?: { readonly attempt: number }) => unknown {
  return (state, context) => {
    if (plan.retry !== null && (context?.attempt ?? 1) <= plan.retry.flaky)
      throw new Error(`${name} is flaky on attempt ${context?.attempt ?? 1}`);
    const d = drive(state);
    const failure = plan.failure !== null && d >= plan.failure.atLeast ? plan.failure.how : undefined;
    if (failure === "throw") throw new Error(`${name} failed at ${d}`);
    if (failure === "reject") return Promise.reject(new Error(`${name} rejected at ${d}`));
    const update: Record<string, unknown> = failure === "stray-field" ? { stray: d } : {};
    for (const write of plan.writes) update[write.field] = writtenValue(name, write, d);
    const output = failure === "null" ? null : failure === "array" ? [update] : update;
    return plan.async ? settleAfter(plan.hops, output) : output;
  };
}

async function settleAfter<T>(hops: number, value: T): Promise<T> {
  for (let i = 0; i < hops; i++) await Promise.resolve();
  return value;
}

function writtenValue(node: string, { field, k, wrong }: Write, d: number): unknown {
  switch (field) {
    case "n":
      return wrong ? "oops" : k;
    case "log":
      return wrong ? "oops" : [`${node}@${d}`];
    case "tags":
      return wrong ? 7 : [`t${(d + k) % 3}`];
    case "items":
      return wrong ? [{ noId: k }] : [{ id: (d + k) % 4, by: node }];
    case "last":
      return wrong ? { nested: [k] } : `${node}:${d}`;
  }
}

/**
 * A router: `"one"` returns one key (sequential graphs); `"keys"` sometimes two keys at once (a path
 * map in a parallel graph); `"list"` 0 to 3 destinations of a list path map, as Sends (each with its
 * own input) when `plan.list` is odd.
 */
function routerFunction(
  keys: readonly string[],
  plan: RouterPlan,
  shape: "one" | "keys" | "list",
): (state: Record<string, unknown>) => unknown {
  return (state) => {
    const d = drive(state);
    const failure = plan.failure !== null && d >= plan.failure.atLeast ? plan.failure.how : undefined;
    if (failure === "throw") throw new Error(`router failed at ${d}`);
    if (failure === "unknown-key") return shape === "list" ? ["no such key"] : "no such key";
    if (failure === "number") return 0;
    const tags = Array.isArray(state["tags"]) ? state["tags"].length : 0;
    const base = plan.a * d + plan.b * tags + plan.c;
    const key = (i: number) => keys[(base + i) % keys.length] as string;
    if (shape === "keys" && plan.list === 3 && d % 2 === 0) return [key(0), key(1)];
    if (shape !== "list") return key(0);
    // Mostly one to three destinations; none now and then (the router then starts nothing).
    const count = (d + plan.c) % 5 === 4 ? 0 : 1 + ((d + plan.c) % 3);
    return Array.from({ length: count }, (_, i) => (plan.list % 2 === 1 ? new Send(key(i), { n: d + i, log: [`sent ${i}`] }) : key(i)));
  };
}
