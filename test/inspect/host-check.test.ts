/** The Host and Origin checks: only the loopback names on the server's own port (no DNS rebinding, no cross-site writes). */
import { describe, expect, it } from "vitest";
import { InspectError } from "../../src/inspect/errors.js";
import { checkHost, checkOrigin } from "../../src/inspect/host-check.js";

const refused = (check: () => void) => {
  try {
    check();
  } catch (error) {
    return error instanceof InspectError ? error.code : `not an InspectError: ${String(error)}`;
  }
  return "accepted";
};

describe("checkHost", () => {
  it("accepts 127.0.0.1 and localhost on the server's port", () => {
    expect(refused(() => checkHost("127.0.0.1:4680", 4680))).toBe("accepted");
    expect(refused(() => checkHost("localhost:4680", 4680))).toBe("accepted");
    expect(refused(() => checkHost("LOCALHOST:4680", 4680))).toBe("accepted");
  });

  it.each([
    ["another name (DNS rebinding)", "evil.example:4680"],
    ["a name that ends like localhost", "evil-localhost:4680"],
    ["a loopback name on another port", "127.0.0.1:8080"],
    ["no port", "127.0.0.1"],
    ["another loopback address", "127.0.0.2:4680"],
    ["IPv6 loopback (the server binds IPv4 only)", "[::1]:4680"],
    ["an empty Host", ""],
  ])("refuses %s", (_why, host) => {
    expect(refused(() => checkHost(host, 4680))).toBe("FORBIDDEN_HOST");
  });

  it("refuses a request without Host, saying which addresses it answers", () => {
    expect(() => checkHost(undefined, 4680)).toThrow(
      'inspect: refused the Host "": tsg inspect answers only http://127.0.0.1:4680 and http://localhost:4680.',
    );
  });
});

describe("checkOrigin", () => {
  it("accepts no Origin (a script) and the inspector's own origin", () => {
    expect(refused(() => checkOrigin(undefined, 4680))).toBe("accepted");
    expect(refused(() => checkOrigin("http://127.0.0.1:4680", 4680))).toBe("accepted");
    expect(refused(() => checkOrigin("http://localhost:4680", 4680))).toBe("accepted");
  });

  it.each([["https://evil.example"], ["http://127.0.0.1:9999"], ["null"], ["https://127.0.0.1:4680"]])(
    "refuses a write from %s",
    (origin) => {
      expect(refused(() => checkOrigin(origin, 4680))).toBe("FORBIDDEN_ORIGIN");
    },
  );
});
