/**
 * What the runtime benchmark times. A workload is verified before it is timed: every contender ran
 * once and produced the expected final state, or it is listed as skipped with the reason, so a broken
 * engine can never look fast.
 */
import { isDeepStrictEqual } from "node:util";

/** One way of doing the workload's job. `run` resolves when one complete run is done. */
export interface Contender {
  readonly name: string;
  readonly run: () => Promise<unknown>;
  /** Node executions per run, for per-step figures. */
  readonly steps: number;
  /** The contender its ratio is taken against, when not the workload's baseline. */
  readonly baseline?: string;
}

/** A contender that was not timed, and why. */
export interface Skipped {
  readonly name: string;
  readonly reason: string;
}

/** A workload whose contenders all passed verification. */
export interface VerifiedWorkload {
  readonly title: string;
  /** The contender the ratios are taken against (the hand-written loop), unless a contender names its own. */
  readonly baseline: string;
  /** How the ratio column is headed when contenders name their own baselines. */
  readonly baselineLabel?: string;
  readonly contenders: readonly Contender[];
  readonly skipped: readonly Skipped[];
}

/** A contender still to verify: `run` resolves with the final state. */
export interface Candidate<S> extends Contender {
  readonly run: () => Promise<S>;
}

/**
 * Runs every candidate once and keeps those whose final state deep-equals `expected`; the others are
 * skipped with the reason (a thrown error or the first differing field).
 */
export async function verify<S>(
  expected: S,
  candidates: readonly (Candidate<S> | Skipped)[],
): Promise<{ contenders: Contender[]; skipped: Skipped[] }> {
  const contenders: Contender[] = [];
  const skipped: Skipped[] = [];
  for (const candidate of candidates) {
    if (!("run" in candidate)) {
      skipped.push(candidate);
      continue;
    }
    let actual: S;
    try {
      actual = await candidate.run();
    } catch (error) {
      skipped.push({ name: candidate.name, reason: `its run failed: ${error instanceof Error ? error.message : String(error)}` });
      continue;
    }
    if (isDeepStrictEqual(actual, expected)) contenders.push(candidate);
    else
      skipped.push({
        name: candidate.name,
        reason: `its final state differs from the mini engine's (${firstDifference(actual, expected)})`,
      });
  }
  return { contenders, skipped };
}

function firstDifference(actual: unknown, expected: unknown): string {
  if (typeof actual !== "object" || actual === null || typeof expected !== "object" || expected === null) {
    return `got ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`;
  }
  const keys = new Set([...Object.keys(actual), ...Object.keys(expected)]);
  for (const key of keys) {
    const a = JSON.stringify((actual as Record<string, unknown>)[key]);
    const b = JSON.stringify((expected as Record<string, unknown>)[key]);
    if (a !== b) return `field "${key}": got ${a}, expected ${b}`;
  }
  return "same JSON, different prototypes or key order";
}
