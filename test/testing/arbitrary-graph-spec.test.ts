/** arbitraryGraphSpec refuses bad options with a coded error naming the option (INVALID_ARGUMENT). */
import { describe, expect, it } from "vitest";
import { InvalidOptionError } from "../../src/index.js";
import { arbitraryGraphSpec, type GraphSpecOptions } from "../../src/testing/index.js";

describe("arbitraryGraphSpec's options", () => {
  it.each([
    [{ minNodes: -1 }, "integers 0 <= minNodes <= maxNodes"],
    [{ minNodes: 4, maxNodes: 2 }, "integers 0 <= minNodes <= maxNodes"],
    [{ maxRouteKeys: 0 }, "maxRouteKeys to be a positive integer"],
    [{ kind: "all" }, 'kind "valid", "well-formed" or "any"'],
    [{ parallel: "yes" }, "parallel to be a boolean"],
  ])("%j is INVALID_ARGUMENT", (options, message) => {
    const error = (() => {
      try {
        arbitraryGraphSpec(options as unknown as GraphSpecOptions);
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(InvalidOptionError);
    expect(error).toMatchObject({ code: "INVALID_ARGUMENT" });
    expect((error as Error).message).toContain(`arbitraryGraphSpec expects ${message}`);
  });
});
