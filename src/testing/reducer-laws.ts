import * as fc from "fast-check";
import { cloneState } from "../engine/index.js";
import type { LawEquality, ReducerLaws, ReducerMetadata } from "../engine/index.js";
import { invalidArgument } from "../errors.js";
import { equalityFor } from "./_internals/equality.js";
import { PropertyViolation } from "./errors.js";

/** The laws a reducer can claim. */
export type ReducerLawName = "associative" | "commutative" | "idempotent" | "identity";

/** One law of a reducer, ready to check with `fc.assert` (or `fc.check`). */
export interface ReducerLawProperty<T> {
  readonly law: ReducerLawName;
  /** The equality the law is checked under. */
  readonly equality: LawEquality;
  /**
   * `true`: the reducer claims the law, so the property must pass.
   * `false`: the reducer records that the law does *not* hold, so `fc.check` must find a counterexample.
   */
  readonly holds: boolean;
  /** A readable name for a test: `append is associative (deep equality)`. */
  readonly name: string;
  readonly property: fc.IPropertyWithHooks<T[]>;
}

/**
 * Returns one fast-check property per law a reducer claims, each checked under the equality it claims.
 * The claims default to the reducer's own metadata (`defineReducer(name, fn, laws)`); a law claimed
 * `false` gives a property expected to fail (the law is known not to hold). `arbitrary` is the domain
 * the claims hold on: `sum` is associative on integers, not on floats.
 *
 * Every reducer call gets fresh copies of its arguments, so a reducer that mutates them is tested fairly.
 * A property that fails throws a `PropertyViolation` (`LAW_BROKEN`) naming the reducer, the law and both
 * sides, which `fc.assert` reports, shrunk, as the `cause` of its own error.
 *
 * @example
 * ```ts
 * import fc from "fast-check";
 * import { reducerLaws } from "typed-state-graph/testing";
 *
 * for (const law of reducerLaws(union, fc.array(fc.string()))) {
 *   test(law.name, () => {
 *     if (law.holds) fc.assert(law.property);
 *     else expect(fc.check(law.property).failed).toBe(true);
 *   });
 * }
 * ```
 */
export function reducerLaws<T>(
  reducer: (current: T, update: T) => T,
  arbitrary: fc.Arbitrary<T>,
  claims?: ReducerLaws,
): ReducerLawProperty<T>[] {
  if (typeof reducer !== "function") {
    throw invalidArgument(
      `reducerLaws: expects a reducer function (current, update) => next as its first argument; got ${typeof reducer}.`,
    );
  }
  const laws = claims ?? (reducer as Partial<ReducerMetadata>).laws;
  const name = (reducer as Partial<ReducerMetadata>).reducerName ?? (reducer.name || "reducer");
  if (laws === undefined) {
    throw invalidArgument(
      `reducerLaws: "${name}" carries no law claims. Pass them as the third argument, ` +
        `or declare them with defineReducer("${name}", fn, { associative: "deep", … }).`,
    );
  }
  // Each call works on its own copies: a mutating reducer must not corrupt the other side of a comparison.
  const r = (a: T, b: T): T => reducer(cloneState(a), cloneState(b));
  const out: ReducerLawProperty<T>[] = [];
  const add = (law: ReducerLawName, claim: LawEquality | false | undefined, build: (check: Check) => fc.IPropertyWithHooks<T[]>) => {
    if (claim === undefined) return;
    // A law recorded as not holding is refuted under deep equality, the plain reading of "r(a, b) ≠ r(b, a)".
    const equality = claim === false ? "deep" : claim;
    const holds = claim !== false;
    const claimText = law === "identity" ? `has identity ${fc.stringify(laws.identity?.value)}` : `is ${holds ? "" : "not "}${law}`;
    out.push({ law, equality, holds, name: `${name} ${claimText} (${equality} equality)`, property: build(checker(name, law, equality)) });
  };

  add("associative", laws.associative, (check) =>
    fc.property(arbitrary, arbitrary, arbitrary, (a, b, c) => check("r(r(a, b), c)", r(r(a, b), c), "r(a, r(b, c))", r(a, r(b, c)))),
  );
  add("commutative", laws.commutative, (check) =>
    fc.property(arbitrary, arbitrary, (a, b) => check("r(a, b)", r(a, b), "r(b, a)", r(b, a))),
  );
  add("idempotent", laws.idempotent, (check) => fc.property(arbitrary, (a) => check("r(a, a)", r(a, a), "a", a)));
  const identity = laws.identity;
  if (identity !== undefined) {
    const e = identity.value as T;
    add("identity", identity.equality, (check) =>
      fc.property(arbitrary, (a) => check("r(e, a)", r(e, a), "a", a) && check("r(a, e)", r(a, e), "a", a)),
    );
  }
  return out;
}

type Check = (leftText: string, left: unknown, rightText: string, right: unknown) => boolean;

/** Compares two sides of a law and throws a message naming the reducer, the law and both values. */
function checker(name: string, law: ReducerLawName, equality: LawEquality): Check {
  const equal = equalityFor(equality);
  return (leftText, left, rightText, right) => {
    if (equal(left, right)) return true;
    throw new PropertyViolation(
      "LAW_BROKEN",
      `reducerLaws: "${name}" breaks the ${law} law under ${equality} equality: ` +
        `${leftText} = ${fc.stringify(left)} but ${rightText} = ${fc.stringify(right)}. ` +
        `Fix the reducer, narrow the arbitrary to the domain the claim holds on, or claim ${law}: false.`,
    );
  };
}
