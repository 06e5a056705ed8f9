/**
 * A failure recorded as data by the DBOS workflow comes back as the class the mini engine raises: the
 * one code-to-class mapping (`errorOfCode`) serves both, for every code of every class.
 */
import { describe, expect, it } from "vitest";
import { recordError, reviveError } from "../../src/dbos/_outcome.js";
import { errorOfCode } from "../../src/engine/run-checks.js";
import {
  GraphExecutionError,
  GraphLimitError,
  INVALID_UPDATE_CODES,
  InvalidUpdateError,
  LIMIT_CODES,
  RUN_FAILURE_CODES,
  type GraphExecutionCode,
} from "../../src/errors.js";

const context = { node: "a", state: { n: 1 }, trace: ["a"] };

const rows: [GraphExecutionCode, string][] = [
  ...INVALID_UPDATE_CODES.map((code): [GraphExecutionCode, string] => [code, "InvalidUpdateError"]),
  ...LIMIT_CODES.map((code): [GraphExecutionCode, string] => [code, "GraphLimitError"]),
  ...RUN_FAILURE_CODES.map((code): [GraphExecutionCode, string] => [code, "GraphExecutionError"]),
];

describe("the code-to-class mapping", () => {
  it.each(rows)("%s is a %s, on the mini engine and revived from a DBOS outcome", (code, name) => {
    const raised = errorOfCode(code, `invoke: ${code}`, context);
    expect(raised.name).toBe(name);
    expect(raised.code).toBe(code);
    const revived = reviveError(recordError(raised), "wf-1");
    expect(revived.name).toBe(name);
    expect(revived.code).toBe(code);
    expect(revived instanceof InvalidUpdateError).toBe(name === "InvalidUpdateError");
    expect(revived instanceof GraphLimitError).toBe(name === "GraphLimitError");
    expect(revived).toBeInstanceOf(GraphExecutionError);
  });
});
