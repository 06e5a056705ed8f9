/**
 * A command's flags, declared once: type, choices, bounds, default and help. Parsing, validation, the
 * typed values a command receives and the `--help` rows are all derived from the declaration, so a
 * default or a list of choices is written in one place (citty's `ArgsDef` is the model; see command.ts
 * for why tsg keeps its own table).
 */
import { quote } from "../inspect/echo.js";
import { invalidArgument } from "../errors.js";
import { UsageError } from "./io.js";

interface FlagBase {
  /** What the flag does, in the help text. */
  readonly description: string;
  /** The value's placeholder in the help text: `N`, `FILE`. Choice flags show their choices by default. */
  readonly valueHint?: string;
}

/** `--flag`: true when given. */
export interface BooleanFlag extends FlagBase {
  readonly type: "boolean";
}

/** `--flag TEXT`. */
export interface StringFlag extends FlagBase {
  readonly type: "string";
  /** The value when the flag is not given. */
  readonly default?: string;
  /** The help's `(default: …)` when the command decides the default itself (then the value is `undefined`). */
  readonly defaultHelp?: string;
  /** Collect every occurrence (`--cities A --cities B`); otherwise a repeated flag takes its last value. */
  readonly multiple?: boolean;
}

/** `--flag CHOICE`, one of `choices`. */
export interface ChoiceFlag extends FlagBase {
  readonly type: "choice";
  readonly choices: readonly string[];
  /** One of `choices`: the value when the flag is not given. */
  readonly default?: string;
  readonly defaultHelp?: string;
  readonly multiple?: boolean;
}

/** `--flag N`, a whole number ≥ `min` (and ≤ `max`, when given). */
export interface IntegerFlag extends FlagBase {
  readonly type: "integer";
  readonly min: number;
  readonly max?: number;
  /** Why `max` is the bound, said in the usage error (e.g. "about 24.8 days, the longest timer Node keeps"). */
  readonly maxReason?: string;
  readonly default?: number;
  readonly defaultHelp?: string;
}

/** One flag of a command. */
export type FlagDef = BooleanFlag | StringFlag | ChoiceFlag | IntegerFlag;

/** A command's flags by long name (without `--`). `--help`/`-h` is added to every command. */
export type FlagTable = Readonly<Record<string, FlagDef>>;

type Given<D, T> = D extends { readonly multiple: true } ? T[] | undefined : D extends { readonly default: unknown } ? T : T | undefined;

/** The value a flag's declaration gives: its choices' type, a number, with its default never `undefined`. */
export type FlagValue<D extends FlagDef> = D extends BooleanFlag
  ? boolean
  : D extends { readonly type: "choice"; readonly choices: readonly (infer C)[] }
    ? Given<D, C>
    : D extends IntegerFlag
      ? Given<D, number>
      : Given<D, string>;

/** The parsed flags of a table. */
export type FlagValues<F extends FlagTable> = { readonly [K in keyof F]: FlagValue<F[K]> };

/**
 * Throws when a declaration contradicts itself (a default that is not one of the choices, or below the
 * minimum): a mistake in tsg, caught when the command is defined, as an `InvalidOptionError`
 * (`INVALID_ARGUMENT`) naming the flag and the rule its default breaks.
 *
 * @example
 * ```ts
 * checkFlagTable("diagram", { format: { type: "choice", choices: ["dot"], default: "svg", description: "…" } }); // throws
 * ```
 */
export function checkFlagTable(command: string, flags: FlagTable): void {
  for (const [name, flag] of Object.entries(flags)) {
    const broken = brokenDefault(flag);
    if (broken !== undefined) {
      throw invalidArgument(
        `tsg ${command}: the default of --${name} does not satisfy its own declaration: ${broken}. Fix the command's flag table.`,
      );
    }
  }
}

/** The rule a flag's default breaks, as a phrase, or `undefined` when it keeps them. */
function brokenDefault(flag: FlagDef): string | undefined {
  if (flag.type === "choice" && flag.default !== undefined && !flag.choices.includes(flag.default))
    return `${quote(flag.default)} is not one of ${flag.choices.join(", ")}`;
  if (flag.type === "integer" && flag.default !== undefined && !(Number.isSafeInteger(flag.default) && flag.default >= flag.min))
    return `${flag.default} is not an integer ≥ ${flag.min}`;
  return undefined;
}

/** The `node:util` parseArgs options of a table (every value flag is a string there). */
export function parseArgsOptions(flags: FlagTable): Record<string, { type: "string" | "boolean"; multiple: boolean }> {
  return Object.fromEntries(
    Object.entries(flags).map(([name, flag]) => [
      name,
      {
        type: flag.type === "boolean" ? "boolean" : "string",
        multiple: flag.type !== "boolean" && flag.type !== "integer" && flag.multiple === true,
      },
    ]),
  );
}

/**
 * The typed values of the flags parseArgs read: each checked against its declaration (a {@link UsageError}
 * naming the flag otherwise), or its default when not given.
 *
 * @example
 * ```ts
 * flagValues({ port: { type: "integer", min: 0, default: 4680, description: "the port" } }, {}); // { port: 4680 }
 * ```
 */
export function flagValues<F extends FlagTable>(flags: F, parsed: Readonly<Record<string, unknown>>): FlagValues<F> {
  const values: Record<string, unknown> = {};
  for (const [name, flag] of Object.entries(flags)) values[name] = readFlag(`--${name}`, flag, parsed[name]);
  // Each value was built from its own declaration just above; the mapped type cannot follow Object.entries.
  return values as FlagValues<F>;
}

function readFlag(name: string, flag: FlagDef, raw: unknown): unknown {
  if (flag.type === "boolean") return raw === true;
  if (raw === undefined) return flag.default;
  if (flag.type === "string") return raw;
  if (flag.type === "integer") return integer(name, String(raw), flag);
  return Array.isArray(raw) ? raw.map((value) => choice(name, String(value), flag.choices)) : choice(name, String(raw), flag.choices);
}

function integer(name: string, value: string, { min, max, maxReason }: IntegerFlag): number {
  const parsed = /^-?\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(parsed) || parsed < min) throw new UsageError(`${name} must be an integer ≥ ${min}; got ${quote(value)}.`);
  if (max !== undefined && parsed > max)
    throw new UsageError(`${name} must be at most ${max}${maxReason === undefined ? "" : ` (${maxReason})`}; got ${quote(value)}.`);
  return parsed;
}

function choice(name: string, value: string, choices: readonly string[]): string {
  if (!choices.includes(value)) throw new UsageError(`${name} must be one of ${choices.join(", ")}; got ${quote(value)}.`);
  return value;
}

/**
 * A flag's row in `--help`: `--format mermaid|dot|json` and its description, with `(repeatable)` and
 * `(default: …)` from the declaration.
 *
 * @example
 * ```ts
 * helpRow("via", { type: "choice", choices: ["linear", "xstate"], default: "linear", description: "who plans" });
 * // ["--via linear|xstate", "who plans (default: linear)"]
 * ```
 */
export function helpRow(name: string, flag: FlagDef): [string, string] {
  const hint =
    flag.type === "boolean"
      ? ""
      : ` ${flag.valueHint ?? (flag.type === "choice" ? flag.choices.join("|") : flag.type === "integer" ? "N" : "VALUE")}`;
  const repeatable = flag.type !== "boolean" && flag.type !== "integer" && flag.multiple === true ? " (repeatable)" : "";
  const fallback = flag.type === "boolean" ? undefined : (flag.defaultHelp ?? flag.default);
  return [`--${name}${hint}`, `${flag.description}${repeatable}${fallback === undefined ? "" : ` (default: ${fallback})`}`];
}
