/**
 * Values that are ready now or later. The engine runs synchronous nodes and routers without awaiting,
 * so a run of synchronous functions pays for no microtask per step.
 */

/** A value, or a promise of it. */
export type MaybePromise<T> = T | Promise<T>;

/**
 * Continues with `next` now when `value` is ready, or once it settles. (Not named `then`: a module
 * exporting `then` is itself a thenable, and `await import()` of it would call it.)
 */
export function andThen<T, U>(value: MaybePromise<T>, next: (value: T) => MaybePromise<U>): MaybePromise<U> {
  return isPromiseLike(value) ? (value as Promise<T>).then(next) : next(value as T);
}

/**
 * Runs `body`; continues with `next` on its value, now when it is ready or once it settles, or with
 * `failed` on what it threw or rejected with (a synchronous throw and a rejection take the same path).
 */
export function settle<T, U>(
  body: () => MaybePromise<T>,
  next: (value: T) => MaybePromise<U>,
  failed: (error: unknown) => MaybePromise<U>,
): MaybePromise<U> {
  let value: MaybePromise<T>;
  try {
    value = body();
  } catch (error) {
    return failed(error);
  }
  return isPromiseLike(value) ? (value as Promise<T>).then(next, failed) : next(value as T);
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
}
