/**
 * Per-node policies: a timeout, retries, a cache and an error handler, declared at `addNode(name, fn,
 * { retry, timeout, cache, errorHandler })`, in `defineGraph`/`bindSpec` implementations (`policies`), or
 * as graph-wide defaults at `compile({ retry, timeout, errorHandler })`. Without a policy a node runs once,
 * with no timeout. The rules (when to
 * retry, how long to wait) are the kernel's (`retryDecision` in kernel/superstep.ts); the attempt loop that
 * every engine runs is in attempts.ts. This file holds the shapes, their validation and the default store.
 */
import { quote } from "../_describe.js";
import type { GraphProblem } from "../errors.js";
type State = Record<string, unknown>;

/**
 * How a node is retried: LangGraph's `RetryPolicy`. Each attempt reads a fresh copy of the same
 * committed state; a failed attempt commits nothing.
 *
 * @example
 * ```ts
 * builder.addNode("fetch", fetchNode, { retry: { maxAttempts: 3, initialInterval: 200, jitter: false } });
 * ```
 */
export interface RetryPolicy {
  /** Attempts in all, the first included: an integer ≥ 1. Default 3. */
  readonly maxAttempts?: number;
  /** Milliseconds before the second attempt: > 0. Default 500. */
  readonly initialInterval?: number;
  /** Each wait is the previous one times this: ≥ 1. Default 2. */
  readonly backoffFactor?: number;
  /** The longest wait, in milliseconds: > 0. Default 128,000. */
  readonly maxInterval?: number;
  /** Randomize each wait by up to ±50 %, so many runs do not retry in step. Default true. */
  readonly jitter?: boolean;
  /** Whether an error is worth another attempt. Default: every error but the library's own validation errors. */
  readonly retryOn?: (error: unknown) => boolean;
}

/**
 * A node's cache: a hit skips the node and commits the cached update. Keys include the node's name and
 * the graph's spec hash, so a changed graph never reads a stale entry.
 *
 * @example
 * ```ts
 * builder.addNode("geocode", geocode, { cache: { key: (s) => s.city, ttl: 60_000 } });
 * ```
 */
export interface CachePolicy<S = never> {
  /** The entry's key, from the state the node reads (a Send's task: its input). */
  readonly key: (state: S) => string;
  /** Milliseconds an entry stays valid: > 0. Default: until the store drops it. */
  readonly ttl?: number;
}

/**
 * Where cached updates live. In memory per compiled graph by default; pass another (a shared store,
 * a database table) with `compile({ cacheStore })`.
 *
 * @example
 * ```ts
 * const store: CacheStore = new MemoryCacheStore();
 * graph = builder.compile({ cacheStore: store });
 * ```
 */
export interface CacheStore {
  get(key: string): State | undefined | Promise<State | undefined>;
  set(key: string, update: State, ttl: number | undefined): void | Promise<void>;
}

/**
 * A node's policies, as `addNode`'s third argument takes them; `S` is what the node reads.
 *
 * @example
 * ```ts
 * const policy: NodePolicy<{ city: string }> = { timeout: 5_000, retry: { maxAttempts: 3 }, cache: { key: (s) => s.city } };
 * ```
 */
export interface NodePolicy<S = never, R = never> {
  /** Milliseconds an attempt may take: > 0. Its `context.signal` aborts then, and the attempt fails with `NODE_TIMEOUT`. */
  readonly timeout?: number;
  readonly retry?: RetryPolicy;
  readonly cache?: CachePolicy<S>;
  /**
   * Runs once the node failed for good (after its retries), instead of the run failing: its update (or
   * `Command`) stands for the node's. See {@link NodeErrorHandler}.
   */
  readonly errorHandler?: NodeErrorHandler<S, R>;
}

/**
 * What a node's error handler is told: the node, and its error. Off a thread `error` is what the node
 * threw (or the run's own failure of it, an Error with a `code`: `NODE_TIMEOUT`, `UNDECLARED_FIELD`…); on
 * a thread it is JSON, `{ node, code, name, message }` (`NodeErrorJson`), the same on a resume.
 *
 * @example
 * ```ts
 * const recover = (s: { log: string[] }, { node, error }: NodeFailure) => ({ log: [`${node} failed: ${String(error)}`] });
 * ```
 */
export interface NodeFailure<N extends string = string> {
  readonly node: N;
  readonly error: unknown;
}

/**
 * A node's error handler (LangGraph.js's `errorHandler`): `(state, { node, error }) => update | Command`,
 * sync or async. It runs once the node failed for good, after its retries (never for an interrupt, an
 * abort or a cancelled task), on the state the node read; its update merges in the node's place, and
 * what follows is only its `Command`'s goto (the node's own edge or route does not apply), which may go
 * where the node's `ends` say. A handler that throws fails the run with `ERROR_HANDLER_FAILED`.
 *
 * @example
 * ```ts
 * builder.addNode("charge", charge, {
 *   ends: ["refund"],
 *   errorHandler: (s, { error }) => new Command({ update: { note: String(error) }, goto: "refund" }),
 * });
 * ```
 */
export type NodeErrorHandler<S = never, R = unknown> = (state: S, failure: NodeFailure) => R;

/**
 * What `addNode`'s third argument takes: the node's policies, and `ends`, the nodes (or `END`) its
 * `Command` may `goto` (LangGraph's `ends`). A goto outside them does not compile, and fails at run time
 * with `UNDECLARED_GOTO`.
 *
 * @example
 * ```ts
 * builder.addNode("triage", (s) => new Command({ goto: s.urgent ? "page" : "queue" }), { ends: ["page", "queue"], timeout: 5_000 });
 * ```
 */
export interface NodeOptions<S = never, Ends extends readonly string[] = readonly string[], Exit extends string = string, R = never>
  extends NodePolicy<S, R> {
  readonly ends?: Ends;
  /**
   * At most `max` visits per run (`0`: never); once reached, the run goes to `exit` (a node or END)
   * instead, or fails with `LOOP_BOUND` (a `GraphLimitError`) without one. See {@link LoopBound}.
   */
  readonly bound?: LoopBound<Exit>;
  /**
   * `true`: once an edge, route, join or `Command` leads here, the node waits until no other node has
   * a task pending, then runs (LangGraph's `defer`: the reduce of a map-reduce whose branches differ in
   * length). A `Send` to it runs at once.
   */
  readonly defer?: boolean;
}

/**
 * A node's loop bound: at most `max` visits per run, and where the run goes once it is reached.
 *
 * @example
 * ```ts
 * builder.addNode("revise_draft", revise, { bound: { max: 2, exit: "hold" } });
 * ```
 */
export interface LoopBound<Exit extends string = string> {
  /** Visits per run: a whole number ≥ 0. */
  readonly max: number;
  /** Where the run goes instead of the node once it ran `max` times; without it, `LOOP_BOUND`. */
  readonly exit?: Exit;
}

/** A retry policy with its defaults filled in. */
export interface ResolvedRetry {
  readonly maxAttempts: number;
  readonly initialInterval: number;
  readonly backoffFactor: number;
  readonly maxInterval: number;
  readonly jitter: boolean;
  readonly retryOn: ((error: unknown) => boolean) | undefined;
}

/** What the engine runs a node with. */
export interface ResolvedPolicy {
  readonly timeout: number | undefined;
  readonly retry: ResolvedRetry | undefined;
  readonly cache: CachePolicy<never> | undefined;
  readonly errorHandler: NodeErrorHandler<never> | undefined;
}

/**
 * An in-memory {@link CacheStore}: entries expire after their `ttl`, read from the clock at each `get`.
 *
 * @example
 * ```ts
 * const graph = builder.compile({ cacheStore: new MemoryCacheStore() });
 * ```
 */
export class MemoryCacheStore implements CacheStore {
  readonly #entries = new Map<string, { readonly update: State; readonly expires: number }>();

  get(key: string): State | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expires <= Date.now()) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.update;
  }

  set(key: string, update: State, ttl: number | undefined): void {
    this.#entries.set(key, { update, expires: ttl === undefined ? Number.POSITIVE_INFINITY : Date.now() + ttl });
  }
}

const RETRY_KEYS = new Set(["maxAttempts", "initialInterval", "backoffFactor", "maxInterval", "jitter", "retryOn"]);
const POLICY_KEYS = new Set(["timeout", "retry", "cache", "errorHandler"]);
const CACHE_KEYS = new Set(["key", "ttl"]);

/**
 * Every problem of the policies of a graph (code `INVALID_POLICY`), each naming the node and the field:
 * `compile()` lists them with the topology's.
 */
export function policyProblems(policies: Readonly<Record<string, unknown>>, defaults: unknown): GraphProblem[] {
  const problems: GraphProblem[] = [];
  const report = (node: string, message: string): void => void problems.push({ code: "INVALID_POLICY", node, message });
  if (defaults !== undefined) checkPolicy("compile", defaults, report, new Set(["timeout", "retry", "errorHandler"]));
  for (const [node, policy] of Object.entries(policies)) if (policy !== undefined) checkPolicy(node, policy, report, POLICY_KEYS);
  return problems;
}

function checkPolicy(node: string, policy: unknown, report: (node: string, message: string) => void, allowed: ReadonlySet<string>): void {
  const where = node === "compile" ? "compile()'s defaults" : `the policy of ${quote(node)}`;
  if (!isObject(policy)) {
    report(node, `${where} must be an object { timeout, retry, cache, errorHandler }.`);
    return;
  }
  for (const key of Object.keys(policy))
    if (!allowed.has(key)) report(node, `${where} has an unknown key ${quote(key)}; use ${[...allowed].join(", ")}.`);
  const { timeout, retry, cache, errorHandler } = policy as { timeout?: unknown; retry?: unknown; cache?: unknown; errorHandler?: unknown };
  if (timeout !== undefined && !isPositive(timeout)) report(node, `${where}: timeout must be a finite number of milliseconds > 0.`);
  if (retry !== undefined) checkRetry(where, node, retry, report);
  if (cache !== undefined) checkCache(where, node, cache, report);
  if (errorHandler !== undefined && typeof errorHandler !== "function")
    report(node, `${where}: errorHandler must be a function (state, { node, error }) => update or Command.`);
}

function checkRetry(where: string, node: string, retry: unknown, report: (node: string, message: string) => void): void {
  if (!isObject(retry)) {
    report(node, `${where}: retry must be an object { maxAttempts, initialInterval, … }.`);
    return;
  }
  for (const key of Object.keys(retry))
    if (!RETRY_KEYS.has(key)) report(node, `${where}: retry has an unknown key ${quote(key)}; use ${[...RETRY_KEYS].join(", ")}.`);
  const r = retry as Record<string, unknown>;
  if (r["maxAttempts"] !== undefined && !(Number.isInteger(r["maxAttempts"]) && (r["maxAttempts"] as number) >= 1)) {
    report(node, `${where}: retry.maxAttempts must be an integer ≥ 1.`);
  }
  for (const key of ["initialInterval", "maxInterval"]) {
    if (r[key] !== undefined && !isPositive(r[key])) report(node, `${where}: retry.${key} must be a finite number of milliseconds > 0.`);
  }
  if (
    r["backoffFactor"] !== undefined &&
    !(typeof r["backoffFactor"] === "number" && Number.isFinite(r["backoffFactor"]) && r["backoffFactor"] >= 1)
  ) {
    report(node, `${where}: retry.backoffFactor must be a finite number ≥ 1.`);
  }
  if (r["jitter"] !== undefined && typeof r["jitter"] !== "boolean") report(node, `${where}: retry.jitter must be true or false.`);
  if (r["retryOn"] !== undefined && typeof r["retryOn"] !== "function")
    report(node, `${where}: retry.retryOn must be a function (error) => boolean.`);
}

function checkCache(where: string, node: string, cache: unknown, report: (node: string, message: string) => void): void {
  if (!isObject(cache)) {
    report(node, `${where}: cache must be an object { key: (state) => string, ttl? }.`);
    return;
  }
  for (const key of Object.keys(cache))
    if (!CACHE_KEYS.has(key)) report(node, `${where}: cache has an unknown key ${quote(key)}; use key, ttl.`);
  const c = cache as Record<string, unknown>;
  if (typeof c["key"] !== "function") report(node, `${where}: cache.key must be a function (state) => string.`);
  if (c["ttl"] !== undefined && !isPositive(c["ttl"])) report(node, `${where}: cache.ttl must be a finite number of milliseconds > 0.`);
}

/** A node's policy merged over the graph's defaults (a node's own `retry`, `timeout` or `errorHandler` wins), with defaults filled in. */
export function resolvePolicy(
  own: NodePolicy<never, unknown> | undefined,
  defaults: Pick<NodePolicy<never, unknown>, "timeout" | "retry" | "errorHandler"> | undefined,
): ResolvedPolicy | undefined {
  const timeout = own?.timeout ?? defaults?.timeout;
  const retry = own?.retry ?? defaults?.retry;
  const cache = own?.cache;
  const errorHandler = own?.errorHandler ?? defaults?.errorHandler;
  if (timeout === undefined && retry === undefined && cache === undefined && errorHandler === undefined) return undefined;
  return {
    timeout,
    cache,
    errorHandler,
    retry:
      retry === undefined
        ? undefined
        : {
            maxAttempts: retry.maxAttempts ?? 3,
            initialInterval: retry.initialInterval ?? 500,
            backoffFactor: retry.backoffFactor ?? 2,
            maxInterval: retry.maxInterval ?? 128_000,
            jitter: retry.jitter ?? true,
            retryOn: retry.retryOn,
          },
  };
}

function isObject(value: unknown): value is object {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isPositive(value: unknown): boolean {
  return typeof value === "number" && Number.isFinite(value) && value > 0;
}
