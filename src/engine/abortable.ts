/**
 * The one place that reads an `AbortSignal` (besides the kernel's `admit`, which decides what an abort
 * means before a superstep). Drivers only listen: a wait on user code that honours the run's signal (a
 * node or router that never settles cannot hold a run whose signal aborted), a listener that also
 * fires for a signal aborted already, a retry's wait, and whether a signal has aborted.
 * test/architecture.test.ts keeps `.aborted` out of every other file.
 */
import { abortedWhile } from "./kernel/superstep.js";

/** `pending`, or the kernel's `ABORTED` failure as soon as `signal` aborts (the late result is discarded). */
export function unlessAborted<T>(node: string, pending: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return pending;
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(abortedWhile(node, signal));
    if (signal.aborted) {
      onAbort();
      return;
    }
    signal.addEventListener("abort", onAbort, { once: true });
    pending.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/**
 * Whether `signal` has aborted (`false` without one).
 *
 * @example
 * ```ts
 * isAborted(AbortSignal.abort()); // true
 * ```
 */
export function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

/**
 * Calls `listener` once `signal` aborts: at once when it already has. Returns what stops listening.
 *
 * @example
 * ```ts
 * const stop = onAbort(signal, () => reject(new Error("aborted")));
 * ```
 */
export function onAbort(signal: AbortSignal, listener: () => void): () => void {
  if (signal.aborted) {
    listener();
    return () => undefined;
  }
  signal.addEventListener("abort", listener, { once: true });
  return () => signal.removeEventListener("abort", listener);
}

/**
 * Waits `delay` ms; resolves `false` at once if `signal` aborts first (a retry's wait).
 *
 * @example
 * ```ts
 * if (!(await delayUnlessAborted(500, signal))) return; // aborted: no further attempt
 * ```
 */
export function delayUnlessAborted(delay: number, signal: AbortSignal): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = onAbort(signal, () => {
      if (timer !== undefined) clearTimeout(timer);
      resolve(false);
    });
    if (signal.aborted) return;
    timer = setTimeout(() => {
      stop();
      resolve(true);
    }, delay);
  });
}
