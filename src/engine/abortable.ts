/**
 * A driver's wait on user code that honours the run's signal: a node or router that never settles
 * cannot hold a run whose signal aborted. Every driver (the mini engine, the XState actors) waits
 * through this one function, so they end an aborted run the same way.
 */
import { abortedWhile } from "./superstep.js";

/** `pending`, or the kernel's `ABORTED` failure as soon as `signal` aborts (the late result is discarded). */
export function unlessAborted<T>(node: string, pending: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return pending;
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(abortedWhile(node, signal));
    if (signal.aborted) return onAbort();
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
