/**
 * When the SQLite suites skip: only where their driver does not load and no one requires it. In CI
 * (`.ci/run` sets TSG_SQLITE_DRIVER_REQUIRED=1) a driver that does not load fails the suites instead.
 */
import { describe, expect, it } from "vitest";
import { driverStatus } from "./_helpers.js";

const missing = () => {
  throw new Error("Cannot find module 'better-sqlite3'\nRequire stack: …");
};

describe("driverStatus", () => {
  it("runs the suites on a driver that loads", () => {
    expect(driverStatus("libsql", () => ({}), true)).toEqual({ loads: true });
    expect(driverStatus("libsql", () => ({}), false)).toEqual({ loads: true });
  });

  it("skips them, saying why and how to install it, when the driver does not load and none requires it", () => {
    expect(driverStatus("better-sqlite3", missing, false)).toEqual({
      loads: false,
      why: expect.stringMatching(/^the SQLite driver "better-sqlite3" does not load \(Cannot find module 'better-sqlite3'\): .*\.ci\/run/),
    });
  });

  it("fails them when the driver is required (CI) and does not load: a skip would hide a broken install", () => {
    expect(() => driverStatus("better-sqlite3", missing, true)).toThrow(
      /TSG_SQLITE_DRIVER_REQUIRED=1, but the SQLite driver "better-sqlite3" does not load .*Cannot find module/,
    );
  });
});
