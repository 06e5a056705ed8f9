import { describe, expect, it } from "vitest";
import {
  buildReportGraph,
  initialReportState,
  readTeachingRecord,
  REPORT_FIELDS,
  ReportRequestError,
  type City,
  type ReportRequest,
} from "../../../src/examples/report/index.js";
import { GraphError, GraphExecutionError } from "../../../src/index.js";

describe("initialReportState", () => {
  it("starts a run with nothing collected, no draft, no review and status working", () => {
    expect(initialReportState({ cities: ["Paris"], includeFahrenheit: false, language: "zh-CN" })).toStrictEqual({
      cities: ["Paris"],
      includeFahrenheit: false,
      language: "zh-CN",
      readings: [],
      draft: null,
      review: null,
      revisions: 0,
      events: [],
      answer: null,
      status: "working",
    });
  });

  it("defaults to Tokyo then Paris, Fahrenheit on, English", () => {
    const state = initialReportState();
    expect([state.cities, state.includeFahrenheit, state.language]).toEqual([["Tokyo", "Paris"], true, "en"]);
  });

  it("keeps the requested city order", () => {
    expect(initialReportState({ cities: ["Paris", "Tokyo"] }).cities).toEqual(["Paris", "Tokyo"]);
  });

  it("declares every state field in REPORT_FIELDS", () => {
    expect([...REPORT_FIELDS].sort()).toEqual(Object.keys(initialReportState()).sort());
  });

  it.each<[string, unknown, string, RegExp]>([
    ["no city", { cities: [] }, "cities", /cities must list one or two of Tokyo and Paris/],
    ["three cities", { cities: ["Tokyo", "Paris", "Tokyo"] }, "cities", /one or two/],
    ["an unknown city", { cities: ["Rome"] }, "cities", /cities contains "Rome"/],
    ["a lower-case city", { cities: ["tokyo"] }, "cities", /cities contains "tokyo"/],
    ["a repeated city", { cities: ["Tokyo", "Tokyo"] }, "cities", /cities lists "Tokyo" twice/],
    ["cities as a string", { cities: "Tokyo" }, "cities", /cities must list/],
    ["null cities", { cities: null }, "cities", /cities must list/],
    [
      "a string for includeFahrenheit",
      { includeFahrenheit: "yes" },
      "includeFahrenheit",
      /includeFahrenheit must be true or false; got "yes"/,
    ],
    ["null includeFahrenheit", { includeFahrenheit: null }, "includeFahrenheit", /includeFahrenheit must be true or false/],
    ["an unknown language", { language: "fr" }, "language", /language must be one of "en", "zh-CN"; got "fr"/],
    ["an unknown field", { city: ["Tokyo"] }, "request", /unknown request field "city"/],
    ["a non-object request", "Tokyo", "request", /the request must be an object/],
  ])("rejects %s with an error naming the field", (_label, request, field, message) => {
    const attempt = () => initialReportState(request as ReportRequest);
    expect(attempt).toThrow(ReportRequestError);
    expect(attempt).toThrow(message);
    expect(attempt).toThrow(/^initialReportState: /);
    expect(attempt).toThrow(expect.objectContaining({ field }));
  });
});

describe("ReportRequestError", () => {
  it.each<[string, string, unknown]>([
    ["a bad value", "INVALID_REQUEST", { cities: ["Rome"] }],
    ["a request that is not an object", "INVALID_REQUEST", "Tokyo"],
    ["an unknown field", "UNKNOWN_REQUEST_FIELD", { city: ["Tokyo"] }],
  ])("is a GraphError with one code per fault: %s is %s", (_label, code, request) => {
    const attempt = () => initialReportState(request as ReportRequest);
    expect(attempt).toThrow(GraphError);
    expect(attempt).toThrow(expect.objectContaining({ name: "ReportRequestError", code }));
  });
});

describe("bad requests never reach a node", () => {
  it("fails in initialReportState, before the reader is called", async () => {
    const reads: City[] = [];
    const graph = buildReportGraph({ reader: (city) => (reads.push(city), readTeachingRecord(city)) });
    const run = async () => graph.invoke(initialReportState({ cities: ["Tokyo", "Rome" as City] }));
    await expect(run()).rejects.toThrow(ReportRequestError);
    expect(reads).toEqual([]);
  });

  it("the graph rejects an input with undeclared fields at START, with no node completed", async () => {
    const reads: City[] = [];
    const graph = buildReportGraph({ reader: (city) => (reads.push(city), readTeachingRecord(city)) });
    const input = { ...initialReportState(), extra: true };
    const error = await graph.invoke(input).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GraphExecutionError);
    expect((error as GraphExecutionError).code).toBe("INVALID_INPUT");
    expect((error as GraphExecutionError).trace).toEqual([]);
    expect(reads).toEqual([]);
  });
});
