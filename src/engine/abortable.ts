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
    const stop = onAbort(signal, () => reject(abortedWhile(node, signal)));
    if (signal.aborted) return;
    pending.then(
      (value) => {
        stop();
        resolve(value);
      },
      (error: unknown) => {
        stop();
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

/** The callers waiting on a signal, behind the one listener the signal has for all of them. */
interface Waiters {
  readonly callbacks: Set<() => void>;
  readonly dispatch: () => void;
}

const waiting = new WeakMap<AbortSignal, Waiters>();

/**
 * Calls `listener` once `signal` aborts: at once when it already has. Returns what stops listening.
 * Every caller waiting on one signal shares one listener on it, so thirty parallel tasks in their retry
 * wait add one, not thirty (Node warns past ten: MaxListenersExceededWarning); the last to stop removes it.
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
  let waiters = waiting.get(signal);
  if (waiters === undefined) {
    const callbacks = new Set<() => void>();
    const dispatch = (): void => {
      waiting.delete(signal);
      for (const callback of callbacks) callback();
    };
    waiters = { callbacks, dispatch };
    waiting.set(signal, waiters);
    signal.addEventListener("abort", dispatch, { once: true });
  }
  const { callbacks, dispatch } = waiters;
  // A wrapper per call: one listener function may wait twice, and each call stops only its own wait.
  const entry = (): void => listener();
  callbacks.add(entry);
  return () => {
    if (!callbacks.delete(entry) || callbacks.size > 0) return;
    waiting.delete(signal);
    signal.removeEventListener("abort", dispatch);
  };
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
