/**
 * Whether a value is a thenable, as `await` and `Promise.resolve` decide it (Promises/A+ §2.3.3): an object
 * *or a function* with a callable `then`. One definition for the engine, the drivers and coverage, so a
 * sync value skips the `await` and its microtask everywhere alike, and a thenable is awaited everywhere.
 *
 * @example
 * ```ts
 * isThenable(Promise.resolve(1)); // true
 * isThenable({ then: (resolve: (v: number) => void) => resolve(1) }); // true
 * isThenable({ count: 1 }); // false
 * ```
 */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === "object" || typeof value === "function") && value !== null && typeof (value as { then?: unknown }).then === "function"
  );
}
