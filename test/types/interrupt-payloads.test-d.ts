/**
 * Interrupt payloads and answers declared as interfaces (issue 35 §1): JSON is read structurally, so an
 * interface (which has no index signature) is a payload; what JSON cannot carry and the type shows
 * (functions, hence methods and Date or Map, symbol keys, bigint) is refused with a sentence.
 */
import { describe, expectTypeOf, it } from "vitest";
import { type Command, defineInterrupt } from "../../src/index.js";
import type { JsonValue } from "../../src/persistence/index.js";

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

class Secret {
  private token = "t";
  private reveal() {
    return this.token;
  }
  protected audit() {
    return this.reveal();
  }
}
class Hidden {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: a private field only is the case under test
  private readonly token = "t";
}
class Guarded {
  protected level = 1;
  name = "n";
}
class Sealed {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: a #private field is the case under test
  #key = 1;
  readonly label = "l";
}
// biome-ignore lint/suspicious/noEmptyInterface: the empty interface is the case under test
interface Empty {}

describe("defineInterrupt's payload: no false error", () => {
  it("a generic helper whose payload is typed JSON", () => {
    function named<P extends JsonValue>(name: string) {
      return defineInterrupt<P, boolean>(name);
    }
    expectTypeOf(named<{ draft: string }>("draft")({ draft: "d" })).toEqualTypeOf<boolean>();
    function listed<P extends JsonValue>(name: string) {
      return defineInterrupt<{ items: P[] }, boolean>(name, {});
    }
    expectTypeOf(listed<string>("items")).toEqualTypeOf<ReturnType<typeof defineInterrupt<{ items: string[] }, boolean>>>();
  });

  it("a field typed only undefined or never", () => {
    defineInterrupt<{ draft: string; note?: undefined }, boolean>("note");
    defineInterrupt<{ draft: string; note: undefined }, boolean>("note");
    defineInterrupt<{ draft: string; none: never }, boolean>("none");
  });

  it("an empty object by its type, an index signature, a weak type", () => {
    defineInterrupt<Record<string, never>, boolean>("empty");
    defineInterrupt<Record<string, number>, boolean>("scores");
    defineInterrupt<{ reason?: string }, boolean>("weak");
  });
});

describe("defineInterrupt's payload: refused, each with its sentence", () => {
  it("a class instance with private, protected or #private members (keyof does not list them)", () => {
    // @ts-expect-error - private members: a class instance, which a thread refuses
    defineInterrupt<Hidden, boolean>("hidden");
    // @ts-expect-error - private and protected methods only
    defineInterrupt<Secret, boolean>("secret");
    // @ts-expect-error - a protected member
    defineInterrupt<Guarded, boolean>("guarded");
    // @ts-expect-error - a #private member
    defineInterrupt<{ inner: Sealed }, boolean>("sealed");
  });

  // `{}` itself still compiles: TypeScript lets it be a JsonValue (see docs/typed-builder.md, what is proved).
  it("object and an empty interface: any value, JSON or not", () => {
    // @ts-expect-error - object
    defineInterrupt<object, boolean>("object");
    // @ts-expect-error - an empty interface is {}
    defineInterrupt<Empty, boolean>("interface");
    // @ts-expect-error - a field typed object
    defineInterrupt<{ data: object }, boolean>("field");
  });

  it("a symbol key below the top level (JsonValue's index signature would let it through)", () => {
    // @ts-expect-error - a nested symbol key
    defineInterrupt<{ meta: { [Symbol.iterator]: number } }, boolean>("nested");
    // @ts-expect-error - in a list
    defineInterrupt<readonly { [Symbol.iterator]: number }[], boolean>("listed");
  });
});
