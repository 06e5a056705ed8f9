/**
 * The checks a run's input and step limit pass before the first node, worded as the mini engine words
 * them, so that both engines reject the same input with the same code.
 */
import { cloneState, isPlainObject } from "../engine/clone.js";
import type { ExecutableGraph } from "../engine/executable.js";
import { DEFAULT_MAX_STEPS, DEFAULT_RECURSION_LIMIT } from "../engine/run.js";
import { describeValue, StepFailure, type State } from "../engine/step.js";
import { InvalidOptionError } from "../errors.js";
import { START } from "../spec.js";
import { executionError } from "./_step.js";

/** Returns a detached copy of a valid input, or throws the mini engine's `INVALID_INPUT` error. */
export function checkedInput(graph: ExecutableGraph, input: unknown, api: string): State {
  if (!isPlainObject(input)) {
    throw invalidInput(api, `the input state must be a plain object; got ${describeValue(input)}.`);
  }
  const undeclared = graph.fields ? Object.keys(input).filter((key) => !graph.fields?.has(key)) : [];
  if (undeclared.length > 0) {
    throw invalidInput(api, `the input has fields the graph does not declare: ${undeclared.join(", ")}. Add them to \`fields\` or remove them.`);
  }
  return cloneState(input);
}

function invalidInput(api: string, message: string) {
  return executionError(api, new StepFailure("INVALID_INPUT", message), { node: START, state: {}, trace: [] });
}

/** The two bounds of a run, checked and defaulted as the mini engine does. */
export interface Limits {
  readonly maxSteps: number;
  readonly recursionLimit: number;
}

/** Returns the run's bounds, or throws `InvalidOptionError` for anything but positive integers. */
export function checkedLimits(options: { readonly maxSteps?: unknown; readonly recursionLimit?: unknown }, api: string): Limits {
  const maxSteps = checkedLimit("maxSteps", options.maxSteps, DEFAULT_MAX_STEPS, api);
  return { maxSteps, recursionLimit: checkedLimit("recursionLimit", options.recursionLimit, Math.max(DEFAULT_RECURSION_LIMIT, maxSteps), api) };
}

function checkedLimit(name: string, value: unknown, fallback: number, api: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1) {
    throw new InvalidOptionError(`${api}: ${name} must be a positive integer; got ${describeValue(value)}. Omit it for the default of ${fallback}.`);
  }
  return value;
}

/** Returns the signal, or throws `InvalidOptionError` for anything but an AbortSignal. */
export function checkedSignal(value: unknown, api: string): AbortSignal | undefined {
  if (value === undefined || value instanceof AbortSignal) return value;
  throw new InvalidOptionError(`${api}: signal must be an AbortSignal; got ${describeValue(value)}.`);
}
