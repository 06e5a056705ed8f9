import { describe, expect, it } from "vitest";
import { andThen, settle } from "../../src/engine/maybe-promise.js";

describe("andThen", () => {
  it("continues now with a ready value, and after a promise settles", async () => {
    expect(andThen(2, (n) => n + 1)).toBe(3);
    const later = andThen(Promise.resolve(2), (n) => n + 1);
    expect(later).toBeInstanceOf(Promise);
    expect(await later).toBe(3);
  });
});

describe("settle", () => {
  it("continues now when the body returns a value: no promise", () => {
    expect(
      settle(
        () => 2,
        (n) => n + 1,
        () => -1,
      ),
    ).toBe(3);
  });

  it("a synchronous throw goes to failed, now", () => {
    expect(
      settle(
        () => {
          throw new Error("boom");
        },
        () => "",
        (error) => (error as Error).message,
      ),
    ).toBe("boom");
  });

  it("a promise: next on its value, failed on its rejection", async () => {
    expect(
      await settle(
        () => Promise.resolve(2),
        (n) => n + 1,
        () => -1,
      ),
    ).toBe(3);
    expect(
      await settle(
        () => Promise.reject(new Error("later")),
        () => "",
        (error) => (error as Error).message,
      ),
    ).toBe("later");
  });
});
