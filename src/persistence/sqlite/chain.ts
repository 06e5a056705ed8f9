/**
 * Reading schema 4's small checkpoints: a row's body holds everything but the trace and routes, and its
 * delta (checked by its own checksum) what its superstep added to its parent's. A row from an earlier
 * schema (no delta) holds the whole lists in its body and is a root of every chain through it.
 */
import type { Checkpoint } from "../../engine/index.js";
import { PersistenceError } from "../../engine/index.js";
import { checkpointShapeProblem } from "../checkpoint-shape.js";
import { isTraceDelta, rebuild, type TraceAndRoutes, type TraceDelta } from "../trace-delta.js";
import { checksumMatches } from "./body.js";
import type { SqliteStatement } from "./driver.js";
import { quoted } from "./faults.js";

/** A stored row as the chain statements select it. `body` may be left out (NULL) for a row with a delta. */
export interface ChainRow {
  readonly seq: number;
  readonly thread_id: string;
  readonly id: string;
  readonly parent_id: string | null;
  readonly body: unknown;
  readonly checksum: string | null;
  readonly delta: unknown;
  readonly delta_checksum: unknown;
}

/**
 * The rows a chain statement selects, which selects `seq, thread_id, id, parent_id, body, checksum,
 * delta, delta_checksum` in this order. As arrays when the driver can (`values`): a history of
 * thousands of rows then costs a plain object per row, not a binding's object with a property set per column.
 */
export function chainRows<P extends readonly unknown[]>(statement: SqliteStatement<P, ChainRow>, ...params: P): ChainRow[] {
  if (statement.values === undefined) return statement.all(...params);
  return statement.values(...params).map((columns) => ({
    seq: columns[0] as number,
    thread_id: columns[1] as string,
    id: columns[2] as string,
    parent_id: columns[3] as string | null,
    body: columns[4],
    checksum: columns[5] as string | null,
    delta: columns[6],
    delta_checksum: columns[7],
  }));
}

/** A row's lists, as read: its delta, or (a row of an earlier schema) the whole lists of its body. */
export type Links =
  | { readonly kind: "delta"; readonly delta: TraceDelta<number> }
  | { readonly kind: "whole"; readonly lists: TraceAndRoutes };

/** The error of a damaged row: what is wrong, and where to go from there. */
export function corruptRow(
  api: string,
  file: string,
  row: Pick<ChainRow, "thread_id" | "id" | "parent_id">,
  problem: string,
  cause?: unknown,
) {
  return new PersistenceError(
    "CHECKPOINT_CORRUPT",
    `${api}: checkpoint ${quoted(row.id)} of thread ${quoted(row.thread_id)} in ${quoted(file)} is corrupt: ${problem}. ` +
      `It cannot be resumed. Restore the file from a backup${
        row.parent_id === null
          ? ", or start the thread again"
          : `, or read the checkpoint before it with getState(threadId, { checkpointId: ${quoted(row.parent_id)} }) and continue from its state on a new thread`
      }.`,
    { threadId: row.thread_id, checkpointId: row.id, ...(cause === undefined ? {} : { cause }) },
  );
}

function parsed(api: string, file: string, row: ChainRow, text: unknown, checksum: unknown, what: string): unknown {
  if (typeof text !== "string")
    throw corruptRow(api, file, row, `its stored ${what} is ${text === null ? "NULL" : `not text (${typeof text})`}`);
  if (checksum !== null && !checksumMatches(text, checksum))
    throw corruptRow(api, file, row, `its stored ${what} does not match its checksum (the bytes changed after it was written)`);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw corruptRow(api, file, row, `its stored ${what} is not JSON`, error);
  }
}

/** The row's body, checked (checksum, JSON, shape, ids): every field but, for a row with a delta, the trace and routes. */
export function bodyOf(api: string, file: string, row: ChainRow): Record<string, unknown> {
  const body = parsed(api, file, row, row.body, row.checksum, "body");
  const problem = checkpointShapeProblem(body, row.delta === null);
  if (problem !== undefined) throw corruptRow(api, file, row, `its stored body is not a checkpoint: ${problem}`);
  const checkpoint = body as Checkpoint;
  if (checkpoint.id !== row.id || checkpoint.threadId !== row.thread_id) {
    throw corruptRow(api, file, row, `its stored body names checkpoint ${quoted(checkpoint.id)} of thread ${quoted(checkpoint.threadId)}`);
  }
  return body as Record<string, unknown>;
}

/** The row's links, checked: its delta, or the whole lists of an earlier schema's body. */
export function linksOf(api: string, file: string, row: ChainRow): Links {
  if (row.delta === null) {
    const { trace, routes } = bodyOf(api, file, row) as unknown as TraceAndRoutes;
    return { kind: "whole", lists: { trace, routes } };
  }
  const delta = parsed(api, file, row, row.delta, row.delta_checksum ?? "", "trace delta");
  if (!isTraceDelta(delta) || !(delta.parent === null || Number.isSafeInteger(delta.parent))) {
    throw corruptRow(api, file, row, "its stored trace delta is not { parent, trace: [keep, names], routes: [keep, routes] }");
  }
  return { kind: "delta", delta: delta as TraceDelta<number> };
}

/**
 * The lists of row `seq`, walking its parents through `links` (by seq) down to a root, or to `known`
 * (lists already at hand, by seq: the store's cache). Work follows the deltas' sizes.
 */
export function listsOf(
  api: string,
  file: string,
  seq: number,
  rows: ReadonlyMap<number, ChainRow>,
  links: (row: ChainRow) => Links,
  known?: { readonly seq: number; readonly lists: TraceAndRoutes },
): { trace: string[]; routes: Checkpoint["routes"][number][] } {
  const chain: TraceDelta<number>[] = [];
  let root: TraceAndRoutes | undefined;
  const target = rows.get(seq) as ChainRow;
  for (let current: ChainRow | undefined = target; ; ) {
    const link = links(current);
    if (link.kind === "whole") {
      root = link.lists;
      break;
    }
    chain.push(link.delta);
    const parent = link.delta.parent;
    if (parent === null) break;
    if (known !== undefined && parent === known.seq) {
      root = known.lists;
      break;
    }
    current = parent < current.seq ? rows.get(parent) : undefined;
    if (current === undefined) throw corruptRow(api, file, target, `the checkpoint its trace continues (row ${parent}) is missing`);
  }
  chain.reverse();
  const lists = rebuild(chain, root);
  if (lists === undefined) throw corruptRow(api, file, target, "its stored trace delta keeps more entries than its parent has");
  return lists;
}

/**
 * Checks that every delta in `rows` continues a row that is there and keeps no more entries than it
 * holds, in write order, so assembling any of them later cannot fail.
 */
export function checkChain(
  api: string,
  file: string,
  rows: ReadonlyMap<number, ChainRow>,
  links: ReadonlyMap<number, Links>,
): Map<number, readonly [number, number]> {
  const lengths = new Map<number, readonly [number, number]>();
  for (const row of [...rows.values()].sort((a, b) => a.seq - b.seq)) {
    const link = links.get(row.seq) as Links;
    if (link.kind === "whole") {
      lengths.set(row.seq, [link.lists.trace.length, link.lists.routes.length]);
      continue;
    }
    const { parent, trace, routes } = link.delta;
    const [traceLength, routesLength] = parent === null ? [0, 0] : (lengths.get(parent) ?? [-1, -1]);
    if (traceLength < 0) throw corruptRow(api, file, row, `the checkpoint its trace continues (row ${parent}) is missing`);
    if (trace[0] > traceLength || routes[0] > routesLength)
      throw corruptRow(api, file, row, "its stored trace delta keeps more entries than its parent has");
    lengths.set(row.seq, [trace[0] + trace[1].length, routes[0] + routes[1].length]);
  }
  return lengths;
}

/**
 * The lists of a history's checkpoints, assembled one at a time as they are read. The last one
 * assembled is kept, so reading the history in order (newest first: a parent's lists are its child's,
 * cut; oldest first: a child's are its parent's plus a delta) costs each entry its own length, not a
 * walk to the thread's start.
 */
export class HistoryLists {
  #last: { readonly seq: number; readonly lists: TraceAndRoutes } | undefined;

  constructor(
    private readonly api: string,
    private readonly file: string,
    private readonly rows: ReadonlyMap<number, ChainRow>,
    private readonly links: ReadonlyMap<number, Links>,
    private readonly lengths: ReadonlyMap<number, readonly [number, number]>,
  ) {}

  /** Fresh lists of row `seq` (the caller's to keep). */
  of(seq: number): TraceAndRoutes {
    const lists = this.#fromLast(seq) ?? listsOf(this.api, this.file, seq, this.rows, (row) => this.links.get(row.seq) as Links);
    this.#last = { seq, lists };
    return { trace: [...lists.trace], routes: lists.routes.map((route) => ({ ...route })) };
  }

  #fromLast(seq: number): TraceAndRoutes | undefined {
    const last = this.#last;
    if (last === undefined) return undefined;
    const own = this.links.get(seq);
    if (own?.kind === "delta" && own.delta.parent === last.seq) return rebuild([{ ...own.delta, parent: null }], last.lists);
    const child = this.links.get(last.seq);
    const [traceLength, routesLength] = this.lengths.get(seq) ?? [-1, -1];
    if (
      child?.kind === "delta" &&
      child.delta.parent === seq &&
      child.delta.trace[0] === traceLength &&
      child.delta.routes[0] === routesLength
    ) {
      return { trace: last.lists.trace.slice(0, traceLength), routes: last.lists.routes.slice(0, routesLength) };
    }
    return undefined;
  }
}

/** Where a lazily assembled checkpoint finds its lists (a non-enumerable own property: no copy, comparison or JSON sees it). */
const LISTS = Symbol("lists");

interface Lazy {
  [LISTS]?: (() => TraceAndRoutes) | undefined;
  trace?: unknown;
  routes?: unknown;
}

/** Replaces a lazy list by a plain property holding `value`. */
function settle(checkpoint: Lazy, key: "trace" | "routes", value: unknown): void {
  Object.defineProperty(checkpoint, key, { value, writable: true, enumerable: true, configurable: true });
}

/** Assembles the lists once, keeps both as plain properties, and lets go of what assembled them. */
function materialize(checkpoint: Lazy): TraceAndRoutes {
  const made = (checkpoint[LISTS] as () => TraceAndRoutes)();
  settle(checkpoint, "trace", made.trace);
  settle(checkpoint, "routes", made.routes);
  checkpoint[LISTS] = undefined;
  return made;
}

/**
 * The accessor of one lazy list. One pair of functions per list for every checkpoint: objects that share
 * them share a hidden class and stay in V8's fast mode, where a closure per object would turn each into
 * a dictionary (slower to build, and bigger to collect).
 */
function lazyList(key: "trace" | "routes"): PropertyDescriptor {
  return {
    enumerable: true,
    configurable: true,
    get(this: Lazy) {
      return materialize(this)[key];
    },
    set(this: Lazy, value: unknown) {
      settle(this, key, value);
    },
  };
}

const TRACE = lazyList("trace");
const ROUTES = lazyList("routes");

/**
 * A checkpoint from a row's body and its lists, its fields in the usual order. Given a function, the
 * lists are assembled when `trace` or `routes` is first read, then kept as plain properties.
 */
export function assemble(body: Record<string, unknown>, lists: TraceAndRoutes | (() => TraceAndRoutes)): Checkpoint {
  const { id, parentId, threadId, step, state, next, tasks } = body;
  const checkpoint: Record<string, unknown> & Lazy = { id, parentId, threadId, step, state, next, tasks };
  if (typeof lists === "function") {
    // Added as new properties (not over existing ones), so the object keeps its fast shape.
    Object.defineProperty(checkpoint, "trace", TRACE);
    Object.defineProperty(checkpoint, "routes", ROUTES);
    Object.defineProperty(checkpoint, LISTS, { value: lists, writable: true, enumerable: false, configurable: true });
  } else {
    checkpoint.trace = lists.trace;
    checkpoint.routes = lists.routes;
  }
  for (const key of Object.keys(body)) {
    if (Object.hasOwn(checkpoint, key)) continue;
    // An own "__proto__" key (JSON.parse makes one) stays a plain field, as a spread would keep it.
    if (key === "__proto__")
      Object.defineProperty(checkpoint, key, { value: body[key], writable: true, enumerable: true, configurable: true });
    else checkpoint[key] = body[key];
  }
  return checkpoint as unknown as Checkpoint;
}
