/**
 * How error messages show a user's values: short, and never throwing. A message is read by a person,
 * so it quotes at most {@link MAX_QUOTED} characters of any value (a 20 MB node name, a list of 5,000
 * cities); the value itself stays reachable (the error's `cause`, `problems`, `state`). Each helper
 * survives what a user can hand us: getters and `toString`s that throw, revoked Proxies, BigInts,
 * cycles, objects without a prototype.
 */

/** The most characters of one user value a message quotes. */
export const MAX_QUOTED = 200;

/**
 * A value as a message quotes it: JSON where JSON can say it (`"draft"`, `3`, `{"a":1}`), else a
 * description (`5n`, `a function`), cut to about {@link MAX_QUOTED} characters.
 */
export function quote(value: unknown, max = MAX_QUOTED): string {
  if (typeof value === "string") return quoteString(value, max);
  if (typeof value === "bigint") return clip(`${value}n`, max);
  if (typeof value === "function" || typeof value === "symbol" || value === undefined) return describeValue(value, max);
  let json: string | undefined;
  try {
    json = JSON.stringify(value, jsonSafe);
  } catch {
    json = undefined;
  }
  return json === undefined ? describeValue(value, max) : clip(json, max);
}

/** A list of names, each quoted, cut after about {@link MAX_QUOTED} characters in all: `"a", "b" and 4,998 more`. */
export function quoteList(values: readonly unknown[], max = MAX_QUOTED): string {
  const shown: string[] = [];
  let length = 0;
  for (const value of values) {
    const quoted = quote(value, max);
    if (shown.length > 0 && length + quoted.length > max) break;
    shown.push(quoted);
    length += quoted.length + 2;
  }
  const rest = values.length - shown.length;
  return rest > 0 ? `${shown.join(", ")} and ${rest.toLocaleString("en-US")} more` : shown.join(", ");
}

/** What a value is, for "got …" in a message: `null`, `an array`, `an instance of Map`, `the string "x"`, `number 5`. */
export function describeValue(value: unknown, max = MAX_QUOTED): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "string":
      return `the string ${quoteString(value, max)}`;
    case "bigint":
      return `bigint ${clip(`${value}n`, max)}`;
    case "symbol":
      return `a symbol`;
    case "function":
      return "a function";
    case "undefined":
      return "undefined";
    case "object":
      return describeObject(value);
    default:
      return `${typeof value} ${String(value)}`;
  }
}

/** The message of anything thrown, cut to about {@link MAX_QUOTED} characters: an Error's `message`, else the value as text. */
export function messageOf(error: unknown, max = MAX_QUOTED): string {
  try {
    if (error instanceof Error) return clip(String(error.message), max);
  } catch {
    // A revoked Proxy or a throwing `message` getter: describe the value instead.
  }
  if (typeof error === "object" && error !== null) {
    try {
      const text = String(error);
      // Object.prototype.toString's "[object Object]" says nothing; a description says more.
      return text.startsWith("[object ") ? describeValue(error, max) : clip(text, max);
    } catch {
      return describeValue(error, max);
    }
  }
  return typeof error === "string" ? clip(error, max) : describeValue(error, max);
}

function describeObject(value: object): string {
  try {
    if (Array.isArray(value)) return "an array";
    const proto = Object.getPrototypeOf(value) as unknown;
    if (proto === null) return "an object without a prototype";
    if (proto === Object.prototype) return "a plain object";
    const name = constructorName(value);
    return name === undefined ? "an instance of an unknown class" : `an instance of ${clip(name, MAX_QUOTED)}`;
  } catch {
    return "an object that cannot be inspected (a revoked Proxy?)";
  }
}

function constructorName(value: object): string | undefined {
  const maker = (value as { constructor?: unknown }).constructor;
  const name = typeof maker === "function" ? (maker as { name?: unknown }).name : undefined;
  return typeof name === "string" && name !== "" ? name : undefined;
}

function quoteString(text: string, max: number): string {
  if (text.length <= max) return JSON.stringify(text);
  return `${JSON.stringify(text.slice(0, max))}… (${text.length.toLocaleString("en-US")} characters)`;
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length.toLocaleString("en-US")} characters)`;
}

function jsonSafe(_key: string, value: unknown): unknown {
  return typeof value === "bigint" ? `${value}n` : value;
}

/** `path.key`, or `path["odd key"]` when the key is not a short identifier: paths appear in messages. */
export function memberPath(path: string, key: string): string {
  return /^[A-Za-z_$][\w$]{0,63}$/.test(key) ? `${path}.${key}` : `${path}[${quoteString(key, MAX_QUOTED)}]`;
}

/** How a rejected option reads in a message: its kind or a short quote, never the value's whole text. */
export function briefly(value: unknown): string {
  if (typeof value === "number" || typeof value === "bigint" || typeof value === "boolean") return String(value);
  if (typeof value === "string") return JSON.stringify(value.length > 50 ? `${value.slice(0, 50)}…` : value);
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  return typeof value === "object" ? `an instance of ${(value as object).constructor?.name ?? "a class"}` : `a ${typeof value}`;
}
