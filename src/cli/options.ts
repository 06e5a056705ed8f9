/** Flag value parsers shared by the `tsg` subcommands: each names its flag in the message. */
import { UsageError } from "./io.js";
import { quote } from "../inspect/echo.js";

/**
 * Parses a flag's integer value, or throws a {@link UsageError} that names the flag.
 *
 * @example
 * ```ts
 * parseIntegerFlag("--max-steps", "30", { min: 1 }); // 30
 * ```
 */
export function parseIntegerFlag(flag: string, value: string | undefined, { min }: { min: number }): number | undefined {
  if (value === undefined) return undefined;
  const parsed = /^-?\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(parsed) || parsed < min) {
    throw new UsageError(`${flag} must be an integer ≥ ${min}; got ${quote(value)}.`);
  }
  return parsed;
}

/**
 * Checks a flag's value against its allowed choices.
 *
 * @example
 * ```ts
 * parseChoiceFlag("--language", "en", ["en", "zh-CN"] as const); // "en"
 * ```
 */
export function parseChoiceFlag<const C extends string>(flag: string, value: string | undefined, choices: readonly C[]): C | undefined {
  if (value === undefined) return undefined;
  if (!(choices as readonly string[]).includes(value)) {
    throw new UsageError(`${flag} must be one of ${choices.join(", ")}; got ${quote(value)}.`);
  }
  return value as C;
}
