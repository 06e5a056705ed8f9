/**
 * Steps as a run records them and as callers read them. A run keeps each node's committed update; the
 * copies a caller reads are made on first read. The run never mutates a committed value (merging builds
 * a new state), so copying later gives the same detached value as copying at once.
 */
import { cloneState } from "./clone.js";
import type { ExecutableGraph } from "./executable.js";
import type { Step } from "./run-types.js";
import { commit } from "./kernel/superstep.js";
import type { RouteTaken, State, Task } from "./step.js";
import { gotoOf, withoutGoto } from "./command-goto.js";
import { visibleUpdate } from "./command-list.js";
import { IdColumn } from "./id-column.js";

/** A completed node execution as the run records it: the committed update, shared until copied. */
export interface StepRecord {
  readonly node: string;
  readonly update: State;
  readonly route: string | string[] | undefined;
  /** The nodes the node's `Command` goto added to the next superstep, when it returned one. */
  readonly goto?: readonly string[];
}

/** What a superstep returns when its steps went into a {@link StepLog}: one empty list for every superstep (never written to). */
export const NO_RECORDS: StepRecord[] = [];

/** A step as the run records it: the node's update without its Command goto, which the record names apart. */
export function stepRecord(node: string, update: State, route: string | string[] | undefined): StepRecord {
  const goto = gotoNames(update);
  if (goto === undefined) return { node, update: visibleUpdate(withoutGoto(update)), route };
  return { node, update: visibleUpdate(withoutGoto(update)), route, goto };
}

/** A superstep's records, one per task in task order (a plain loop: this runs once per superstep of every run). */
export function stepRecords(
  tasks: readonly Task[],
  updates: readonly State[],
  keys: readonly (string | string[] | undefined)[],
): StepRecord[] {
  const records = new Array<StepRecord>(tasks.length);
  for (let index = 0; index < tasks.length; index++)
    records[index] = stepRecord((tasks[index] as Task).node, updates[index] as State, keys[index]);
  return records;
}

/** The nodes a Command goto in `update` sends to, or `undefined` when there is none. */
function gotoNames(update: State): string[] | undefined {
  return gotoOf(update)?.map((task) => task.node);
}

/** A step whose `update` and `state` are copied on first read. */
export function detachedStep(record: StepRecord, committedState: State): Step<State> {
  return lazyStep(record, () => committedState);
}

function lazyStep(record: StepRecord, stateOf: () => State): Step<State> {
  const { node, route, goto } = record;
  let update: State | undefined;
  let state: State | undefined;
  return {
    node,
    get update() {
      // A log's record keeps a list of Commands' parts apart (its replay commits them): read together.
      return (update ??= cloneState(visibleUpdate(record.update)));
    },
    set update(value: State) {
      update = value;
    },
    get state() {
      return (state ??= cloneState(stateOf()));
    },
    set state(value: State) {
      state = value;
    },
    ...(route === undefined ? {} : { route: typeof route === "string" ? route : [...route] }),
    ...(goto === undefined ? {} : { goto: [...goto] }),
  };
}

/**
 * What a run keeps of its steps for `invoke`'s `steps`: each step's node and committed update, in
 * columns, and the route keys and Command gotos. A long run retains, per step, its update and node (a
 * list slot each) and two 4-byte ids (route key, superstep size: {@link IdColumn}), no record object: what survives a collection is what the collector copies, and a record per step made
 * retention the largest cost of a trivial step (issue 34); a million steps' result held 154 MB (issue 37).
 */
export class StepLog {
  /** A plain list, not a column: a chain's nodes are all distinct, and a lookup per step cost more than the 4 bytes saved. */
  readonly #nodes: string[] = [];
  readonly #updates: State[] = [];
  /** Steps per superstep, in order. */
  readonly #sizes = new IdColumn<number>();
  /** The route key each step took (`undefined`: none, or a list, kept in `#lists`). */
  readonly #keys = new IdColumn<string | undefined>();
  /** The route keys of the steps whose router returned a list, by step index (rare). */
  #lists: Map<number, string[]> | undefined;
  /** Command gotos by step index. */
  #gotos: Map<number, readonly string[]> | undefined;

  /** Appends one superstep's steps: its tasks, their updates and the route keys they took, by position (as {@link stepRecord} records them). */
  add(tasks: readonly Task[], updates: readonly State[], keys: readonly (string | string[] | undefined)[]): void {
    for (let position = 0; position < tasks.length; position++) {
      const index = this.#nodes.length;
      const update = updates[position] as State;
      const route = keys[position];
      const goto = gotoNames(update);
      this.#nodes.push((tasks[position] as Task).node);
      this.#updates.push(withoutGoto(update));
      if (typeof route === "object") (this.#lists ??= new Map()).set(index, route);
      this.#keys.push(typeof route === "object" ? undefined : route);
      if (goto !== undefined) (this.#gotos ??= new Map()).set(index, goto);
    }
    this.#sizes.push(tasks.length);
  }

  /**
   * The steps of the finished run: each step's `state` is the state after its superstep, replayed
   * from `input` through the kernel's own `commit` the first time any step's state is read. So a run
   * retains its updates only (linear in their size), not a state per superstep.
   */
  steps(graph: ExecutableGraph, input: State): Step<State>[] {
    const updates = this.#updates;
    const count = this.#nodes.length;
    const nodes = this.#nodes;
    const sizes = Array.from({ length: this.#sizes.length }, (_, superstep) => this.#sizes.at(superstep));
    let states: State[] | undefined;
    const superstepOf: number[] = new Array(count);
    let at = 0;
    sizes.forEach((size, superstep) => {
      for (let i = 0; i < size; i++) superstepOf[at++] = superstep;
    });
    const replay = (): State[] => {
      const replayed: State[] = [];
      let state = input;
      let offset = 0;
      for (const size of sizes) {
        const tasks = nodes.slice(offset, offset + size).map((node) => ({ node, sent: false }));
        const committed = commit(graph, state, tasks, updates.slice(offset, offset + size));
        offset += size;
        // The run committed these very updates; a replay cannot fail unless a reducer is impure.
        if (!committed.ok) throw committed.failure;
        state = committed.state;
        replayed.push(state);
      }
      return replayed;
    };
    return nodes.map((node, index) => {
      const route = this.#lists?.get(index) ?? this.#keys.at(index);
      const goto = this.#gotos?.get(index);
      const record: StepRecord = { node, update: updates[index] as State, route, ...(goto === undefined ? {} : { goto }) };
      return lazyStep(record, () => (states ??= replay())[superstepOf[index] as number] as State);
    });
  }
}

/** The result fields a run may build on first read (see {@link defineLazyFields}). */
export interface LazyFields {
  readonly steps: () => Step<State>[];
  readonly routes: () => RouteTaken[];
}

/**
 * Gives `result` own enumerable `steps` and `routes` accessors: each field is built on first read
 * and kept after (assigning replaces it). The accessors are one pair of functions per field shared by
 * every result, and the builders (then the values) sit in a private field stamped onto the result, out
 * of sight of `Object.keys` and `Reflect.ownKeys`. Why not a getter closing over the log: V8 keeps each
 * object's own accessor pair in its old generation, so such a getter kept every run's updates alive
 * through the young collections after it, and they were promoted; a WeakMap keyed by the result kept
 * them alive the same way. That copying was the largest cost of a trivial step (issue 34, measured in
 * bench/profile-chain.ts). `routes` is built on read for the same reason as `steps`: until then a long
 * run's result holds one shared route per distinct choice, not an object per choice (issue 37).
 */
export function defineLazyFields<R extends object>(
  result: R,
  build: LazyFields,
): asserts result is R & { steps: Step<State>[]; routes: RouteTaken[] } {
  Lazy.stamp(result, build);
  Object.defineProperty(result, "steps", LAZY.steps);
  Object.defineProperty(result, "routes", LAZY.routes);
}

/** A class whose constructor returns the object it is given: a subclass's private fields land on that object. */
class Stamped {
  constructor(target: object) {
    // biome-ignore lint/correctness/noConstructorReturn: returning the target is what stamps a private field onto a plain object
    return target;
  }
}

/** The private fields behind {@link defineLazyFields}: the builders, then what they built. */
class Lazy extends Stamped {
  #build: LazyFields | undefined;
  #steps: Step<State>[] | undefined;
  #routes: RouteTaken[] | undefined;

  private constructor(target: object, build: LazyFields) {
    super(target);
    this.#build = build;
  }

  static stamp(target: object, build: LazyFields): void {
    new Lazy(target, build);
  }

  static steps(target: object, assigned?: Step<State>[]): Step<State>[] | undefined {
    if (!(#steps in target)) return undefined;
    if (assigned !== undefined) target.#steps = assigned;
    target.#steps ??= target.#build?.steps();
    Lazy.#release(target);
    return target.#steps;
  }

  static routes(target: object, assigned?: RouteTaken[]): RouteTaken[] | undefined {
    if (!(#routes in target)) return undefined;
    if (assigned !== undefined) target.#routes = assigned;
    target.#routes ??= target.#build?.routes();
    Lazy.#release(target);
    return target.#routes;
  }

  /** Once both fields are built, the builders (and the log they read) are let go. */
  static #release(target: Lazy): void {
    if (target.#steps !== undefined && target.#routes !== undefined) target.#build = undefined;
  }
}

/** An enumerable accessor whose getter reads `field` and whose setter replaces it. */
function lazyField<T>(field: (target: object, assigned?: T) => T | undefined): PropertyDescriptor {
  return {
    get(this: object): T | undefined {
      return field(this);
    },
    set(this: object, value: T): void {
      field(this, value);
    },
    enumerable: true,
    configurable: true,
  };
}

const LAZY = { steps: lazyField(Lazy.steps), routes: lazyField(Lazy.routes) } as const;
