/**
 * Every built-in reducer against its law claims (the metadata `defineReducer` attaches), each under
 * the equality it claims, on the domain it claims it for. A law claimed `false` must be refuted:
 * fast-check finds a counterexample.
 */
import { fc } from "@fast-check/vitest";
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { append, defineReducer, mergeById, replace, sum, union, type ReducerLaws } from "../../src/index.js";
import { PropertyViolation, reducerLaws, type ReducerLawProperty } from "../../src/testing/index.js";
import { identifiedItems, json, propertyParams } from "./arbitraries.js";

const runs = 100;

/** Checks each law: a claimed law holds; a law claimed `false` fails, with a counterexample. */
function verify<T>(laws: readonly ReducerLawProperty<T>[]): void {
  for (const law of laws) {
    if (law.holds) fc.assert(law.property, propertyParams(runs));
    else expect(fc.check(law.property, propertyParams(runs)).failed, `${law.name}: expected a counterexample`).toBe(true);
  }
}

const claimed = <T>(laws: readonly ReducerLawProperty<T>[]) =>
  laws.map((law) => `${law.law}${law.holds ? "" : " (refuted)"}: ${law.equality}`);

describe("built-in reducers keep their law claims", () => {
  it("append: associative and identity [] (deep); not commutative, not idempotent", () => {
    const laws = reducerLaws(append<unknown>, fc.array(json, { maxLength: 4 }));
    expect(claimed(laws)).toEqual(["associative: deep", "commutative (refuted): deep", "idempotent (refuted): deep", "identity: deep"]);
    verify(laws);
  });

  it("append is not commutative: the counterexample is two different one-item arrays", () => {
    const commutative = reducerLaws(append<number>, fc.array(fc.integer({ min: 0, max: 9 })), { commutative: "deep" })[0];
    const details = fc.check(commutative!.property, propertyParams(runs));
    expect(details.failed).toBe(true);
    const [a, b] = details.counterexample ?? [];
    expect([a?.length, b?.length]).toEqual([1, 1]);
    expect(a).not.toEqual(b);
  });

  it("sum: associative, commutative, identity 0 (on safe integers); not idempotent", () => {
    const laws = reducerLaws(sum, fc.integer());
    expect(claimed(laws)).toEqual(["associative: deep", "commutative: deep", "idempotent (refuted): deep", "identity: deep"]);
    verify(laws);
  });

  it("sum is associative on integers only: adding amounts in tenths is not", () => {
    const associative = reducerLaws(
      sum,
      fc.integer({ min: -100, max: 100 }).map((tenths) => tenths / 10),
      { associative: "deep" },
    )[0];
    expect(fc.check(associative!.property, propertyParams(runs)).failed).toBe(true);
  });

  it("union: associative (deep); commutative, idempotent and identity [] as a set", () => {
    const laws = reducerLaws(union<unknown>, fc.array(json, { maxLength: 5 }));
    expect(claimed(laws)).toEqual(["associative: deep", "commutative: set", "idempotent: set", "identity: set"]);
    verify(laws);
  });

  it("union keeps a stable order, so it is not commutative as an array", () => {
    const details = fc.check(
      reducerLaws(union<number>, fc.array(fc.integer({ min: 0, max: 3 })), { commutative: "deep" })[0]!.property,
      propertyParams(runs),
    );
    expect(details.failed).toBe(true);
  });

  it("union: idempotent and identity [] hold deeply on duplicate-free arrays", () => {
    verify(
      reducerLaws(union<unknown>, fc.uniqueArray(json, { comparator: "IsStrictlyEqual", maxLength: 5 }).filter(noDeepRepeats), {
        idempotent: "deep",
        identity: { value: [], equality: "deep" },
      }),
    );
  });

  it("replace: associative and idempotent; not commutative", () => {
    const laws = reducerLaws(replace<unknown>, json);
    expect(claimed(laws)).toEqual(["associative: deep", "commutative (refuted): deep", "idempotent: deep"]);
    verify(laws);
  });

  it("mergeById: associative, idempotent and identity [] (on arrays with unique ids); not commutative", () => {
    const laws = reducerLaws(mergeById<{ id: string | number; v: number }>, identifiedItems);
    expect(claimed(laws)).toEqual(["associative: deep", "commutative (refuted): deep", "idempotent: deep", "identity: deep"]);
    verify(laws);
  });

  it("mergeById is not even commutative as a set: the later item of an id wins", () => {
    const details = fc.check(
      reducerLaws(mergeById<{ id: string | number; v: number }>, identifiedItems, { commutative: "set" })[0]!.property,
      propertyParams(runs),
    );
    expect(details.failed).toBe(true);
  });
});

describe("a user's own reducer", () => {
  const max = defineReducer("max", (a: number, b: number) => Math.max(a, b), {
    associative: "deep",
    commutative: "deep",
    idempotent: "deep",
    identity: { value: 0, equality: "deep" },
  });

  it("its claims are read from defineReducer's metadata and hold on their domain", () => {
    // The identity 0 holds on non-negative numbers: the arbitrary is the domain of the claims.
    verify(reducerLaws(max, fc.nat()));
  });

  it("a claim that does not hold fails with a shrunk counterexample and a message naming the reducer", () => {
    const latest = defineReducer("latest", (_a: number, b: number) => b, { commutative: "deep" } satisfies ReducerLaws);
    const [commutative] = reducerLaws(latest, fc.integer());
    const details = fc.check(commutative!.property, propertyParams(runs));
    expect(details.failed).toBe(true);
    expect(details.numShrinks).toBeGreaterThan(0);
    // Shrunk to the smallest pair of different integers.
    expect((details.counterexample ?? []).map((x) => Math.abs(x)).sort()).toEqual([0, 1]);
    expect(String(details.errorInstance)).toContain(`reducerLaws: "latest" breaks the commutative law under deep equality`);
    expect(details.errorInstance).toBeInstanceOf(PropertyViolation);
    expect(details.errorInstance).toMatchObject({ code: "LAW_BROKEN", message: expect.stringMatching(/claim commutative: false\.$/) });
    // The report a failing fc.assert throws carries what is needed to replay it.
    expect(fc.defaultReportMessage(details)).toMatch(/seed: -?\d+, path: "[\d:]+", endOnFailure: true/);
  });

  it("claims passed explicitly replace the metadata; a reducer without any is refused with a hint", () => {
    const plus = (a: number, b: number) => a + b;
    expect(reducerLaws(plus, fc.integer(), { commutative: "deep" }).map((law) => law.law)).toEqual(["commutative"]);
    expect(() => reducerLaws(plus, fc.integer())).toThrow(/^reducerLaws: "plus" carries no law claims\. .*defineReducer\("plus"/);
    expect(() => reducerLaws(plus, fc.integer())).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
    expect(() => reducerLaws(42 as never, fc.integer())).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENT", message: expect.stringMatching(/^reducerLaws: expects a reducer function/) }),
    );
  });

  it("a reducer that mutates its arguments is checked on fresh copies of them", () => {
    const pushAll = (current: number[], update: number[]) => {
      current.push(...update);
      return current;
    };
    verify(
      reducerLaws(pushAll, fc.array(fc.integer(), { maxLength: 3 }), { associative: "deep", identity: { value: [], equality: "deep" } }),
    );
  });
});

function noDeepRepeats(items: readonly unknown[]): boolean {
  return items.every((item, i) => items.findIndex((other) => isDeepStrictEqual(other, item)) === i);
}
