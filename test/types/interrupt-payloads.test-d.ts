/**
 * Interrupt payloads and answers declared as interfaces (issue 35 §1): JSON is read structurally, so an
 * interface (which has no index signature) is a payload; what JSON cannot carry and the type shows
 * (functions, hence methods and Date or Map, symbol keys, bigint) is refused with a sentence.
 */
import { describe, expectTypeOf, it } from "vitest";
import { type Command, defineInterrupt } from "../../src/index.js";

interface ApprovalRequest {
  draft: string;
  reviewer: string;
}
interface Review {
  request: ApprovalRequest;
  notes: readonly string[];
  error: string | undefined;
  deadline?: string;
}
interface Comment {
  text: string;
  replies: Comment[];
}
interface Decision {
  approved: boolean;
  reason?: string;
}
class Point {
  constructor(
    readonly x: number,
    readonly y: number,
  ) {}
}

describe("defineInterrupt's payload", () => {
  it("is an interface, one holding interfaces, optional and undefined-able fields, a recursive type, a data class", () => {
    const approval = defineInterrupt<ApprovalRequest, boolean>("approval");
    expectTypeOf(approval({ draft: "d", reviewer: "r" })).toEqualTypeOf<boolean>();
    defineInterrupt<Review, boolean>("review");
    defineInterrupt<Comment, string>("thread");
    defineInterrupt<Point, string>("point");
    defineInterrupt<readonly ApprovalRequest[], string>("batch");
    defineInterrupt<string | null, string>("question");
  });

  it("the answer is an interface too", () => {
    const decide = defineInterrupt<ApprovalRequest, Decision>("decide");
    expectTypeOf(decide.resume({ approved: true })).toEqualTypeOf<Command<Decision>>();
    // @ts-expect-error - approved is a boolean
    decide.resume({ approved: "yes" });
  });

  it("refuses what JSON cannot carry", () => {
    // @ts-expect-error - a Date has methods: not JSON
    defineInterrupt<{ at: Date }, boolean>("when");
    // @ts-expect-error - a Map is not JSON
    defineInterrupt<{ seen: Map<string, number> }, boolean>("seen");
    // @ts-expect-error - a method is a function
    defineInterrupt<{ draft: string; render(): string }, boolean>("render");
    // @ts-expect-error - a function-valued field
    defineInterrupt<{ onDone: () => void }, boolean>("done");
    // @ts-expect-error - bigint
    defineInterrupt<{ amount: bigint }, boolean>("amount");
    // @ts-expect-error - a symbol key
    defineInterrupt<{ [Symbol.iterator]: number }, boolean>("symbol");
    // @ts-expect-error - undefined alone is no payload
    defineInterrupt<undefined, boolean>("nothing");
    // @ts-expect-error - deep in a list of interfaces
    defineInterrupt<{ items: { at: Date }[] }, boolean>("deep");
  });
});
