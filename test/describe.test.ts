import { describe, expect, it } from "vitest";
import { describeValue, memberPath, messageOf, quote, quoteList } from "../src/_describe.js";

describe("how messages quote a user's values", () => {
  it("quotes at most about 200 characters of a value, saying how long it was", () => {
    expect(quote("x".repeat(20_000_000))).toMatch(/^"x{200}"… \(20,000,000 characters\)$/);
    expect(quote(Array.from({ length: 5000 }, (_, i) => `city ${i}`)).length).toBeLessThan(260);
  });

  it("lists names until about 200 characters, then counts the rest", () => {
    expect(quoteList(["a", "b"])).toBe(`"a", "b"`);
    expect(quoteList(Array.from({ length: 5000 }, (_, i) => `n${i}`))).toMatch(/^"n0", "n1", .* and 4,9\d\d more$/);
  });

  it.each<[string, unknown, string]>([
    ["a BigInt", 5n, "5n"],
    [
      "a cycle",
      (() => {
        const a: Record<string, unknown> = {};
        a["a"] = a;
        return a;
      })(),
      "a plain object",
    ],
    ["an object without a prototype", Object.create(null), "{}"],
    ["a function", () => 1, "a function"],
  ])("quotes %s without throwing", (_label, value, expected) => {
    expect(quote(value)).toBe(expected);
  });

  it.each<[string, unknown, string]>([
    ["an Error", new Error("boom"), "boom"],
    ["a string", "plain", "plain"],
    ["an object without a prototype", Object.create(null), "an object without a prototype"],
    [
      "an object whose toString throws",
      {
        toString() {
          throw new Error("no");
        },
      },
      "a plain object",
    ],
    ["undefined", undefined, "undefined"],
    [
      "a revoked Proxy",
      (() => {
        const { proxy, revoke } = Proxy.revocable({}, {});
        revoke();
        return proxy;
      })(),
      "an object that cannot be inspected (a revoked Proxy?)",
    ],
  ])("gives the message of %s thrown", (_label, thrown, expected) => {
    expect(messageOf(thrown)).toBe(expected);
  });

  it("describes values for 'got …'", () => {
    expect(describeValue(new Map())).toBe("an instance of Map");
    expect(describeValue([1])).toBe("an array");
    expect(describeValue("s")).toBe(`the string "s"`);
    expect(describeValue(3)).toBe("number 3");
  });

  it("writes paths with odd or long keys in brackets", () => {
    expect(memberPath("input", "draft")).toBe("input.draft");
    expect(memberPath("input", "odd key")).toBe(`input["odd key"]`);
    expect(memberPath("input", "k".repeat(1000)).length).toBeLessThan(260);
  });
});
