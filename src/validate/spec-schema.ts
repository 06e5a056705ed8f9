/**
 * The shape of a spec that arrives as data (parsed JSON, say): checked by hand, because the shape is
 * small and a hand-written check names the exact path that is wrong.
 */
import type { GraphProblem } from "../errors.js";

type Check = (value: unknown, path: string, problems: GraphProblem[]) => void;

const problem = (path: string, expected: string, value: unknown): GraphProblem => ({
  code: "INVALID_SPEC",
  node: path,
  message: `bindSpec: ${path} must be ${expected}; got ${value === undefined ? "nothing" : JSON.stringify(value)}.`,
});

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

const string: Check = (value, path, problems) => {
  if (typeof value !== "string") problems.push(problem(path, "a string", value));
};

const stringList: Check = (value, path, problems) => {
  if (!Array.isArray(value)) problems.push(problem(path, "a list of strings", value));
  else value.forEach((item, index) => string(item, `${path}[${index}]`, problems));
};

function listOf(item: Check): Check {
  return (value, path, problems) => {
    if (!Array.isArray(value)) problems.push(problem(path, "a list", value));
    else value.forEach((entry, index) => item(entry, `${path}[${index}]`, problems));
  };
}

function objectWith(fields: Readonly<Record<string, { readonly check: Check; readonly optional?: boolean }>>): Check {
  return (value, path, problems) => {
    if (!isRecord(value)) {
      problems.push(problem(path, `an object with ${Object.keys(fields).join(", ")}`, value));
      return;
    }
    for (const [name, { check, optional }] of Object.entries(fields)) {
      if (value[name] === undefined && optional) continue;
      check(value[name], `${path}.${name}`, problems);
    }
    for (const name of Object.keys(value)) {
      if (!Object.hasOwn(fields, name)) problems.push(problem(`${path}.${name}`, "absent (it is not a spec field)", value[name]));
    }
  };
}

const pathMap: Check = (value, path, problems) => {
  if (!isRecord(value)) problems.push(problem(path, "an object { routeKey: destination }", value));
  else for (const [key, to] of Object.entries(value)) string(to, `${path}.${key}`, problems);
};

const boolean: Check = (value, path, problems) => {
  if (typeof value !== "boolean") problems.push(problem(path, "true or false", value));
};

/** `subgraphs`: node → the child graph's spec, checked with the same shape (declared below). */
const subgraphs: Check = (value, path, problems) => {
  if (!isRecord(value)) problems.push(problem(path, "an object { node: spec }", value));
  else for (const [node, child] of Object.entries(value)) specShape(child, `${path}.${node}`, problems);
};

const specShape: Check = objectWith({
  nodes: { check: stringList },
  edges: { check: listOf(objectWith({ from: { check: string }, to: { check: string } })) },
  routes: {
    check: listOf(objectWith({ from: { check: string }, router: { check: string, optional: true }, paths: { check: pathMap }, sends: { check: boolean, optional: true } })),
  },
  fanOuts: { check: listOf(objectWith({ from: { check: string }, to: { check: stringList } })), optional: true },
  joins: { check: listOf(objectWith({ from: { check: stringList }, to: { check: string } })), optional: true },
  reducers: { check: listOf(objectWith({ field: { check: string }, reducer: { check: string } })), optional: true },
  fields: { check: stringList, optional: true },
  subgraphs: { check: (value, path, problems) => subgraphs(value, path, problems), optional: true },
});

/**
 * Checks that a value has the shape of a graph spec; returns one problem per wrong path (empty when the shape is right).
 *
 * @example
 * ```ts
 * checkSpecSchema({ nodes: ["a"], edges: "oops", routes: [] });
 * // → [{ code: "INVALID_SPEC", node: "spec.edges", message: "bindSpec: spec.edges must be a list; got \"oops\"." }]
 * ```
 */
export function checkSpecSchema(spec: unknown): GraphProblem[] {
  const problems: GraphProblem[] = [];
  specShape(spec, "spec", problems);
  const fields = isRecord(spec) && Array.isArray(spec["fields"]) ? (spec["fields"] as unknown[]) : [];
  const repeated = fields.filter((field, index) => fields.indexOf(field) !== index);
  if (repeated.length > 0) problems.push(problem("spec.fields", "a list of distinct field names", [...new Set(repeated)]));
  return problems;
}
