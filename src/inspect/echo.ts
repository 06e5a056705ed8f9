/**
 * How `tsg` (its commands and its inspector) echoes what it was given: a value cut to a readable length,
 * saying how much was cut, so a 40 KB argument never becomes 40 KB of stderr. Every message that quotes
 * a user's value goes through here. It lives with the inspector because the inspector may not import
 * the CLI, and the CLI imports the inspector.
 */

/** The longest user value echoed as it is, in characters. */
export const ECHO_LIMIT = 80;

/** The longest line of a message from elsewhere (a library's error, a store's) echoed as it is. */
export const LINE_LIMIT = 500;

/**
 * `text`, or its first `limit` characters and how many more there were, with control characters escaped
 * as JSON writes them (`\n`, `\u001b`…): a path or id is echoed on one line, and a terminal never reads
 * an escape sequence from it.
 *
 * @example
 * ```ts
 * cut("Tokyo,".repeat(10_000)); // "Tokyo,Tokyo,…Tok… (59,920 more characters)"
 * cut("a\u001b[2Jb"); // "a\\u001b[2Jb"
 * ```
 */
export function cut(text: string, limit: number = ECHO_LIMIT): string {
  if (text.length <= limit) return escapeControls(text);
  // Never split a surrogate pair: the cut text stays well-formed.
  const end = /[\uD800-\uDBFF]/.test(text.charAt(limit - 1)) ? limit - 1 : limit;
  const more = text.length - end;
  return `${escapeControls(text.slice(0, end))}… (${more.toLocaleString("en-US")} more character${more === 1 ? "" : "s"})`;
}

/** C0 controls, DEL and C1 controls (a terminal reads U+009B as the start of an escape sequence, like ESC [). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters to escape them is the point.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/** `text` with each control character written as JSON writes it: `\n`, `\t`…, else `\u00XX`. */
function escapeControls(text: string): string {
  return text.replace(CONTROL, (char) =>
    char < "\u0020" ? JSON.stringify(char).slice(1, -1) : `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/**
 * A user's value as JSON, cut: what a message shows after "got".
 *
 * @example
 * ```ts
 * quote("brief-1"); // "\"brief-1\""
 * ```
 */
export function quote(value: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    text = undefined;
  }
  return cut(text ?? String(value));
}

/**
 * A message from elsewhere, each line cut to {@link LINE_LIMIT}.
 *
 * @example
 * ```ts
 * cutLines(error.message);
 * ```
 */
export function cutLines(message: string, limit: number = LINE_LIMIT): string {
  return message
    .split("\n")
    .map((line) => cut(line, limit))
    .join("\n");
}
