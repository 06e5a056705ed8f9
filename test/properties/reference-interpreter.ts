/**
 * A tiny reference interpreter, written only for the tests: the engine's rules (docs/concepts.md)
 * read as plainly as possible, with its own copy, merge and route lookup. It shares no code with
 * src/engine, so the equivalence property compares two implementations, not one with itself.
 * Sequential graphs only (edges and routes); no abort signal.
 */
import type { GraphDefinition } from "../../src/index.js";
import { END, START } from "../../src/index.js";

type State = Record<string, unknown>;

export interface RouteRecord {
  readonly from: string;
  readonly key: string;
  readonly to: string;
}

export interface StepRecord {
  readonly node: string;
  readonly update: State;
  readonly state: State;
  /** The route key taken after the node (a list when a router fans out). */
  readonly route?: string | readonly string[];
}

/** How a run ended, in a shape every engine's result can be normalized to. */
export type Outcome =
  | { readonly kind: "done"; readonly state: State; readonly trace: string[]; readonly routes: RouteRecord[]; readonly steps?: StepRecord[] }
  | { readonly kind: "error"; readonly code: string; readonly node: string; readonly state: State; readonly trace: string[] };

const copy = <T>(value: T): T => structuredClone(value);

function isPlainRecord(value: unknown): value is State {
  if (Object.prototype.toString.call(value) !== "[object Object]") return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

export async function referenceRun(definition: GraphDefinition, input: unknown, maxSteps: number): Promise<Outcome> {
  const { spec } = definition;
  const fields = spec.fields === undefined ? undefined : new Set(spec.fields);
  const reducerOf = (field: string) =>
    spec.reducers.some((r) => r.field === field) ? (definition.reducers[field] as unknown as (a: unknown, b: unknown) => unknown) : undefined;

  let state: State = {};
  const trace: string[] = [];
  const routes: RouteRecord[] = [];
  const steps: StepRecord[] = [];
  const fail = (code: string, node: string): Outcome => ({ kind: "error", code, node, state: copy(state), trace: [...trace] });

  if (!isPlainRecord(input)) return fail("INVALID_INPUT", START);
  if (fields && Object.keys(input).some((key) => !fields.has(key))) return fail("INVALID_INPUT", START);
  state = copy(input);

  /** The next node after `source`, or the error code when choosing fails. */
  const choose = async (source: string): Promise<{ to: string; key?: string } | { code: string }> => {
    const edge = spec.edges.find((e) => e.from === source);
    if (edge) return { to: edge.to };
    const route = spec.routes.find((r) => r.from === source);
    const router = definition.routers[source] as unknown as (s: State) => unknown;
    if (!route) return { code: "UNKNOWN_ROUTE_KEY" };
    let key: unknown;
    try {
      key = await router(copy(state));
    } catch {
      return { code: "ROUTER_FAILED" };
    }
    const path = Object.entries(route.paths).find(([k]) => k === key);
    if (path === undefined) return { code: "UNKNOWN_ROUTE_KEY" };
    routes.push({ from: source, key: path[0], to: path[1] });
    return { to: path[1], key: path[0] };
  };

  let next = await choose(START);
  if ("code" in next) return fail(next.code, START);
  while (next.to !== END) {
    const node = next.to;
    if (trace.length >= maxSteps) return fail("STEP_LIMIT", node);
    let output: unknown;
    try {
      output = await (definition.nodes[node] as unknown as (s: State) => unknown)(copy(state));
    } catch {
      return fail("NODE_FAILED", node);
    }
    const update = output === undefined ? {} : output;
    if (!isPlainRecord(update)) return fail("INVALID_UPDATE", node);
    if (Object.keys(update).some((key) => key === "__proto__" || (fields !== undefined && !fields.has(key)))) return fail("INVALID_UPDATE", node);
    const own = copy(update);

    // Staged: the next state is built aside and replaces the state only when every reducer succeeded.
    const merged: State = { ...state };
    try {
      for (const key of Object.keys(own)) {
        const reducer = reducerOf(key);
        merged[key] = reducer !== undefined && state[key] !== undefined ? reducer(copy(state[key]), own[key]) : own[key];
      }
    } catch {
      return fail("REDUCER_FAILED", node);
    }
    state = merged;
    trace.push(node);

    next = await choose(node);
    if ("code" in next) return fail(next.code, node);
    steps.push({ node, update: copy(own), state: copy(state), ...(next.key === undefined ? {} : { route: next.key }) });
  }
  return { kind: "done", state: copy(state), trace, routes, steps };
}
