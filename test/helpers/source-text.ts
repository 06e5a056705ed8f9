/** Reading src/ as text, for the tests that scan imports (test/architecture.test.ts, the optional-peer checks). */

/** The code without its comment lines: a TSDoc `@example` may show an import of a file that does not exist. */
export function withoutCommentLines(text: string): string {
  return text
    .split("\n")
    .filter((line) => !/^\s*(\*|\/\/|\/\*)/.test(line))
    .join("\n");
}
