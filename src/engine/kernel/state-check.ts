/**
 * The state schema's run-time check, beside the merge: where data enters the state (a new run's input,
 * a thread's input merged with its state, each superstep's candidate state after the reducers, a
 * `Command` update, an `updateState` edit), the whole candidate state is validated before it is
 * committed. Standard Schema offers only a whole-value `validate`, and a reducer's update is not its
 * field's type (`append` takes items), so the merged state is what is checked, never an update alone.
 * A refused state commits nothing: the caller keeps the state it had.
 */
import { messageOf, quote } from "../../_describe.js";
import { START } from "../../spec.js";
import type { StandardSchemaV1, StateCheck } from "../state-schema.js";

export type { StateCheck };
import { StepFailure, type State } from "../step.js";

/** The most issues a failure's message lists; the failure's `cause.issues` holds every one. */
const LISTED_ISSUES = 20;
/** The most characters of an offending value a message quotes. */
const QUOTED_VALUE = 80;
/** The most characters of one issue's message a failure's message repeats. */
const MESSAGE_LENGTH = 200;

/** What {@link checkState} decided: the state to commit (the schema's output), or the failure. */
export type CheckedState = { readonly ok: true; readonly state: State } | { readonly ok: false; readonly failure: StepFailure };

/** What a refused state carries as its `cause`: every issue the schema reported. */
export interface StateIssues {
  readonly issues: readonly StandardSchemaV1.Issue[];
}

/** Whether `value` looks like a Standard Schema (an object or function with a `~standard.validate`). */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  if ((typeof value !== "object" && typeof value !== "function") || value === null) return false;
  const props = (value as { "~standard"?: unknown })["~standard"];
  return typeof props === "object" && props !== null && typeof (props as { validate?: unknown }).validate === "function";
}

/** The check of a schema `compile()` accepted. */
export function stateCheckOf(schema: StandardSchemaV1): StateCheck {
  const props = schema["~standard"];
  return { schema, validate: props.validate.bind(props) };
}

/**
 * Validates a candidate state. `source` names where it came from: `START` for an input (code
 * `INVALID_INPUT`), else the nodes whose updates were merged (code `INVALID_STATE`); `Command` and
 * `updateState` name themselves. On success the state to commit is the schema's output (defaults filled
 * in), so the state always holds the schema's output type.
 *
 * @example
 * ```ts
 * const checked = checkState(graph.stateCheck, merged, ["draft", "review"]);
 * if (!checked.ok) return { ok: false, node: "draft", failure: checked.failure };
 * ```
 */
export function checkState(check: StateCheck, candidate: State, sources: readonly string[]): CheckedState {
  const input = sources.length === 1 && sources[0] === START;
  const code = input ? "INVALID_INPUT" : "INVALID_STATE";
  let result: StandardSchemaV1.Result<unknown> | Promise<StandardSchemaV1.Result<unknown>>;
  try {
    result = check.validate(candidate);
  } catch (error) {
    return {
      ok: false,
      failure: new StepFailure(code, `${subject(input, sources)}: the state schema threw while validating it.`, { cause: error }),
    };
  }
  if (result instanceof Promise) {
    // Nothing awaits it, so its rejection must not become an unhandled one.
    result.catch(() => undefined);
    return {
      ok: false,
      failure: new StepFailure(
        code,
        `${subject(input, sources)}: the state schema validated asynchronously; a state schema must be synchronous (no async refinements or transforms).`,
      ),
    };
  }
  if (result.issues === undefined) return { ok: true, state: result.value as State };
  const fix = input ? "Pass an input the schema accepts." : "Return values the schema accepts from these nodes, or fix the schema.";
  return { ok: false, failure: refusal(code, `${subject(input, sources)} does not fit the state schema`, result.issues, candidate, fix) };
}

/** A graph's per-field schemas (`fieldSchemas`), read once at `compile()`: field → its check. */
export type FieldChecks = ReadonlyMap<string, StateCheck>;

/** What {@link checkUpdate} decided: the update to merge (each checked field as its schema outputs it), or the failure. */
export type CheckedUpdate = { readonly ok: true; readonly update: State } | { readonly ok: false; readonly failure: StepFailure };

/**
 * Validates each field of one update that has a field schema, on its own, before the reducers merge it
 * (the value a node, a `Command` or an `updateState` edit writes; for a field with a reducer, what the
 * reducer takes). `source` is the node the update comes from, `START` for an input (code
 * `INVALID_INPUT`, else `INVALID_FIELD`). Every refused field is reported, each issue's path starting
 * at its field.
 *
 * @example
 * ```ts
 * const checked = checkUpdate(graph.fieldChecks, { amount: "42" }, "settle");
 * if (!checked.ok) throw checked.failure; // INVALID_FIELD: amount (got "42"): Invalid input: expected number
 * ```
 */
export function checkUpdate(checks: FieldChecks, update: State, source: string): CheckedUpdate {
  const input = source === START;
  const code = input ? "INVALID_INPUT" : "INVALID_FIELD";
  const what = input ? "the input" : `the update of ${quote(source)}`;
  let checked: State | undefined;
  const issues: StandardSchemaV1.Issue[] = [];
  for (const field of Object.keys(update)) {
    const check = checks.get(field);
    if (check === undefined) continue;
    let result: StandardSchemaV1.Result<unknown> | Promise<StandardSchemaV1.Result<unknown>>;
    try {
      result = check.validate(update[field]);
    } catch (error) {
      const failure = new StepFailure(code, `${what}: the schema of field ${quote(field)} threw while validating it.`, { cause: error });
      return { ok: false, failure };
    }
    if (result instanceof Promise) {
      result.catch(() => undefined);
      const failure = new StepFailure(
        code,
        `${what}: the schema of field ${quote(field)} validated asynchronously; a field schema must be synchronous.`,
      );
      return { ok: false, failure };
    }
    if (result.issues !== undefined) {
      for (const issue of result.issues) issues.push({ ...issue, path: [field, ...(issue.path ?? [])] });
      continue;
    }
    checked ??= { ...update };
    checked[field] = result.value;
  }
  if (issues.length === 0) return { ok: true, update: checked ?? update };
  const fix = input
    ? "Pass values the field schemas accept."
    : "Return values the field schemas accept from this node, or fix the schemas.";
  return { ok: false, failure: refusal(code, `${what} does not fit the field schemas`, issues, update, fix) };
}

/** The failure for a refused value: what was refused, how many issues, the fix, then each issue (cut short). */
function refusal(
  code: StepFailure["code"],
  refused: string,
  issues: readonly StandardSchemaV1.Issue[],
  candidate: State,
  fix: string,
): StepFailure {
  const cause: StateIssues = { issues };
  const listed = issues.slice(0, LISTED_ISSUES).map((issue) => `  - ${describeIssue(issue, candidate)}`);
  if (issues.length > LISTED_ISSUES) listed.push(`  … and ${issues.length - LISTED_ISSUES} more (error.cause.issues lists every one).`);
  const count = `${issues.length} issue${issues.length === 1 ? "" : "s"}`;
  return new StepFailure(code, `${refused} (${count}); nothing was committed. ${fix}\n${listed.join("\n")}`, { cause });
}

function subject(input: boolean, sources: readonly string[]): string {
  if (input) return "the input";
  return `the state merged from the update${sources.length === 1 ? "" : "s"} of ${sources.map((node) => quote(node)).join(", ")}`;
}

/** `amount (got "42"): Invalid input: expected number` — the path, the value there cut short, the schema's message. */
function describeIssue(issue: StandardSchemaV1.Issue, candidate: State): string {
  // Some libraries quote the whole received value in their message (valibot): cut it as a value is.
  const message = messageOf(String(issue.message), MESSAGE_LENGTH);
  const keys = (issue.path ?? []).map((segment) => (typeof segment === "object" && segment !== null ? segment.key : segment));
  if (keys.length === 0) return message;
  const path = keys.map((key, index) => (typeof key === "number" ? `[${key}]` : index === 0 ? String(key) : `.${String(key)}`)).join("");
  const found = valueAt(candidate, keys);
  const got = found.present ? ` (got ${quote(found.value, QUOTED_VALUE)})` : " (missing)";
  return `${path}${got}: ${message}`;
}

function valueAt(root: unknown, keys: readonly PropertyKey[]): { present: boolean; value?: unknown } {
  let value = root;
  for (const key of keys) {
    if ((typeof value !== "object" && typeof value !== "function") || value === null || !Object.hasOwn(value, key))
      return { present: false };
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return { present: true, value };
}
