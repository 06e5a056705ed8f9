/**
 * A tiny reference interpreter, written only for the tests: the engine's rules (docs/concepts.md,
 * including the superstep pseudocode) read as plainly as possible, with its own copy, merge, route
 * lookup and scheduler. It shares no code with src/engine (only the public `Send` class, which routers
 * return), so the equivalence property compares two implementations, not one with itself.
 * A sequential graph is the special case of one node per superstep. No abort signal.
 */
import type { GraphDefinition } from "../../src/index.js";
import { END, Send, START } from "../../src/index.js";

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
  /** The route key taken after the node (a list when a router returned a list). */
  readonly route?: string | readonly string[];
}

/** How a run ended, in a shape every engine's result can be normalized to. */
export type Outcome =
  | {
      readonly kind: "done";
      readonly state: State;
      readonly trace: string[];
      readonly routes: RouteRecord[];
      readonly steps?: StepRecord[];
      /** How many supersteps ran, when the engine reports it. */
      readonly supersteps?: number;
    }
  | { readonly kind: "error"; readonly code: string; readonly node: string; readonly state: State; readonly trace: string[] };

/** A node to run: a Send's task reads its own input instead of the state. */
interface Task {
  readonly node: string;
  readonly sent: boolean;
  readonly input?: unknown;
}

const copy = <T>(value: T): T => structuredClone(value);

function isPlainRecord(value: unknown): value is State {
  if (Object.prototype.toString.call(value) !== "[object Object]") return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Thrown inside the interpreter to end the run with an error outcome. */
class Failure {
  constructor(
    readonly code: string,
    readonly node: string,
  ) {}
}

export async function referenceRun(definition: GraphDefinition, input: unknown, maxSteps: number): Promise<Outcome> {
  const { spec } = definition;
  const fields = spec.fields === undefined ? undefined : new Set(spec.fields);
  const hasReducer = (field: string) => spec.reducers.some((r) => r.field === field);
  const reducerOf = (field: string) =>
    hasReducer(field) ? (definition.reducers[field] as unknown as (a: unknown, b: unknown) => unknown) : undefined;
  const recursionLimit = Math.max(25, maxSteps);
  const declared = (node: string) => spec.nodes.indexOf(node);

  let state: State = {};
  const trace: string[] = [];
  const routes: RouteRecord[] = [];
  const steps: StepRecord[] = [];
  let supersteps = 0;
  // Per join: the sources that arrived since it last fired.
  const arrived = (spec.joins ?? []).map(() => new Set<string>());
  const fail = (code: string, node: string): Outcome => ({ kind: "error", code, node, state: copy(state), trace: [...trace] });

  if (!isPlainRecord(input)) return fail("INVALID_INPUT", START);
  if (fields && Object.keys(input).some((key) => !fields.has(key))) return fail("INVALID_INPUT", START);
  state = copy(input);

  /** What `source` leads to: tasks, plus the keys its router returned (a list when it returned a list). */
  const successors = async (source: string): Promise<{ tasks: Task[]; keys?: string | string[] }> => {
    const edge = spec.edges.find((e) => e.from === source);
    if (edge) return { tasks: [{ node: edge.to, sent: false }] };
    const fanOut = (spec.fanOuts ?? []).find((f) => f.from === source);
    if (fanOut) return { tasks: fanOut.to.map((node) => ({ node, sent: false })) };
    const joinIndex = (spec.joins ?? []).findIndex((j) => j.from.includes(source));
    const join = (spec.joins ?? [])[joinIndex];
    if (join) {
      const sources = arrived[joinIndex] as Set<string>;
      sources.add(source);
      if (sources.size < new Set(join.from).size) return { tasks: [] };
      sources.clear();
      return { tasks: [{ node: join.to, sent: false }] };
    }
    const route = spec.routes.find((r) => r.from === source);
    if (!route) throw new Failure("UNKNOWN_ROUTE_KEY", source);
    const router = definition.routers[source] as unknown as (s: State) => unknown;
    let returned: unknown;
    try {
      returned = await router(copy(state));
    } catch {
      throw new Failure("ROUTER_FAILED", source);
    }
    const items = Array.isArray(returned) ? (returned as unknown[]) : [returned];
    const tasks: Task[] = [];
    const keys: string[] = [];
    for (const item of items) {
      const key = item instanceof Send ? item.node : item;
      const path = Object.entries(route.paths).find(([k]) => k === key);
      if (path === undefined) throw new Failure("UNKNOWN_ROUTE_KEY", source);
      routes.push({ from: source, key: path[0], to: path[1] });
      keys.push(path[0]);
      tasks.push(item instanceof Send ? { node: path[1], sent: true, input: item.input } : { node: path[1], sent: false });
    }
    return { tasks, keys: Array.isArray(returned) ? keys : (keys[0] as string) };
  };

  /** END dropped; plain tasks once each, Sends all kept; in declaration order, a plain task before Sends to its node (other ties keep their order). */
  const schedule = (tasks: readonly Task[]): Task[] => {
    const seen = new Set<string>();
    const kept = tasks.filter((task) => {
      if (task.node === END) return false;
      if (task.sent) return true;
      if (seen.has(task.node)) return false;
      seen.add(task.node);
      return true;
    });
    return kept
      .map((task, i) => ({ task, i }))
      .sort((a, b) => declared(a.task.node) - declared(b.task.node) || Number(a.task.sent) - Number(b.task.sent) || a.i - b.i)
      .map(({ task }) => task);
  };

  try {
    let active = schedule((await successors(START)).tasks);
    while (active.length > 0) {
      const first = active[0] as Task;
      if (active.length > maxSteps - trace.length) return fail("STEP_LIMIT", (active[maxSteps - trace.length] as Task).node);
      if (supersteps >= recursionLimit) return fail("STEP_LIMIT", first.node);

      // Every task reads its own copy of the same state; the first failure in declaration order wins.
      const outputs = await Promise.all(
        active.map(async (task) => {
          // A retry policy runs a node that throws again, each attempt on a fresh copy of the same state.
          const attempts = definition.policies?.[task.node]?.retry?.maxAttempts ?? 1;
          for (let attempt = 1; ; attempt++) {
            try {
              const fn = definition.nodes[task.node] as unknown as (s: unknown, context: { attempt: number }) => unknown;
              return { ok: true as const, value: await fn(copy(task.sent ? task.input : state), { attempt }) };
            } catch {
              if (attempt >= attempts) return { ok: false as const };
            }
          }
        }),
      );
      const updates: State[] = [];
      for (const [i, task] of active.entries()) {
        const output = outputs[i];
        if (output === undefined || !output.ok) return fail("NODE_FAILED", task.node);
        const update = output.value === undefined ? {} : output.value;
        if (!isPlainRecord(update)) return fail("INVALID_UPDATE", task.node);
        if (Object.keys(update).some((key) => key === "__proto__" || (fields !== undefined && !fields.has(key))))
          return fail("UNDECLARED_FIELD", task.node);
        updates.push(copy(update));
      }

      // Staged: the next state is built aside, in declaration order, and replaces the state only at the end.
      let next: State = state;
      const writer = new Map<string, string>();
      for (const [i, task] of active.entries()) {
        const update = updates[i] as State;
        if (active.length > 1) {
          for (const key of Object.keys(update)) {
            if (hasReducer(key)) continue;
            if (writer.has(key)) return fail("CONCURRENT_WRITE", task.node);
            writer.set(key, task.node);
          }
        }
        const merged: State = { ...next };
        try {
          for (const key of Object.keys(update)) {
            const reducer = reducerOf(key);
            merged[key] = reducer !== undefined && next[key] !== undefined ? reducer(copy(next[key]), update[key]) : update[key];
          }
        } catch {
          return fail("REDUCER_FAILED", task.node);
        }
        next = merged;
      }
      state = next;
      for (const task of active) trace.push(task.node);
      supersteps += 1;

      const tasks: Task[] = [];
      // Each task's step reports the keys its own router call returned.
      const keysOf: (string | string[] | undefined)[] = [];
      for (const task of active) {
        const found = await successors(task.node).catch((error: unknown) => {
          if (error instanceof Failure) throw new Failure(error.code, task.node);
          throw error;
        });
        tasks.push(...found.tasks);
        keysOf.push(found.keys);
      }
      active.forEach((task, i) => {
        const keys = keysOf[i];
        steps.push({
          node: task.node,
          update: copy(updates[i] as State),
          state: copy(state),
          ...(keys === undefined ? {} : { route: keys }),
        });
      });
      active = schedule(tasks);
    }
    // A run that ends with a join still waiting took a branch that never reaches it: that fails.
    const waiting = (spec.joins ?? []).findIndex((_, index) => (arrived[index] as Set<string>).size > 0);
    const join = (spec.joins ?? [])[waiting];
    if (join !== undefined) return fail("JOIN_INCOMPLETE", join.to);
  } catch (error) {
    if (error instanceof Failure) return fail(error.code, error.node);
    throw error;
  }
  return { kind: "done", state: copy(state), trace, routes, steps, supersteps };
}
