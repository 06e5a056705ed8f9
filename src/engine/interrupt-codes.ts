/**
 * The codes of an `InterruptError`, as data: docs/concepts.md's table is checked against them, and the
 * kernel never retries them. A file of its own, so the kernel reads the list without the interrupt frame.
 *
 * @example
 * ```ts
 * INTERRUPT_ERROR_CODES.includes("NO_PENDING_INTERRUPT"); // true
 * ```
 */
export const INTERRUPT_ERROR_CODES = [
  "INTERRUPT_OUTSIDE_THREAD",
  "NO_PENDING_INTERRUPT",
  "UNKNOWN_INTERRUPT",
  "AMBIGUOUS_RESUME",
  "INVALID_RESUME",
] as const;
