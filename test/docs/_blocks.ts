/**
 * The ```ts blocks of the README and docs/, and what their markers say. A marker is an HTML comment on
 * the line before a block, with comma-separated directives:
 * - `not-checked` (or `not-checked: reason`): a fragment, shown but not compiled. Use it sparingly;
 * - `continues`: the block continues the page's previous checked block (skipping `compile-error` blocks);
 * - `compile-error: ID`: the block shows a compile error, each guarded by `// @ts-expect-error`. The next
 *   ```text block lists what each compiler says (`TS 6.0.3  error TS…`, indented lines deeper in the
 *   message; `…` at either end of a line stands for text left out).
 * Blocks import `typed-state-graph` (and its subpaths) like a user; `./src/…` imports name the repository's
 * own files (the examples).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export const root = join(import.meta.dirname, "../..");

/** The compilers whose messages the docs quote. */
export const COMPILERS = ["6.0.3", "7.0.2"] as const;
export type Compiler = (typeof COMPILERS)[number];

export interface Block {
  /** `docs/concepts.md:42` (the line of the opening fence). */
  readonly name: string;
  readonly page: string;
  readonly firstLine: number;
  readonly code: string;
  /** Blocks this one continues, first to last. */
  readonly before: readonly Block[];
  /** The id of the compile error the block shows, when it shows one. */
  readonly compileError?: string;
  /** For a compile error: what each compiler says, as the docs quote it. */
  readonly messages?: ReadonlyMap<string, readonly string[]>;
}

/** The folders of docs/ whose pages are checked as the top-level ones are (not docs/api, the generated API pages). */
const DOC_FOLDERS = ["docs", "docs/guide", "docs/reference"] as const;

/** The .md pages of one folder of the repository, sorted (none when the folder does not exist). */
function pagesIn(folder: string): string[] {
  if (!existsSync(join(root, folder))) return [];
  return readdirSync(join(root, folder))
    .filter((file) => file.endsWith(".md"))
    .sort()
    .map((file) => `${folder}/${file}`);
}

/** README.md and every page of docs/, docs/guide/ and docs/reference/ (not the generated API reference). */
export function docPages(): string[] {
  return ["README.md", ...DOC_FOLDERS.flatMap(pagesIn)];
}

/** The chapters of the guide, in order (docs/guide/NN-*.md; its README.md is the table of contents). */
export function guidePages(): string[] {
  return pagesIn("docs/guide").filter((page) => /\/\d\d-[^/]+\.md$/.test(page));
}

const OPEN = /^(\s*)```(ts|typescript)\s*$/;
const CLOSE = /^\s*```\s*$/;

/** The checked ```ts blocks of one page; throws on a marker it does not know. */
export function blocksOf(page: string): Block[] {
  const lines = readFileSync(join(root, page), "utf8").split("\n");
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = OPEN.exec(lines[i] ?? "");
    if (fence === null) continue;
    const end = closingFence(lines, i);
    const indent = (fence[1] ?? "").length;
    const code = lines
      .slice(i + 1, end)
      .map((line) => line.slice(indent))
      .join("\n");
    const firstLine = i + 1;
    const directives = markerBefore(lines, i, `${page}:${firstLine}`);
    i = end;
    if (directives.has("not-checked")) continue;
    const previous = blocks.findLast((block) => block.compileError === undefined);
    if (directives.has("continues") && previous === undefined)
      throw new Error(`${page}:${firstLine}: "continues", but no checked block before it`);
    const before = directives.has("continues") && previous !== undefined ? [...previous.before, previous] : [];
    const compileError = directives.get("compile-error");
    const error = compileError === undefined ? {} : { compileError, messages: messagesAfter(lines, end, `${page}:${firstLine}`) };
    blocks.push({ name: `${page}:${firstLine}`, page, firstLine, code, before, ...error });
  }
  return blocks;
}

function closingFence(lines: readonly string[], open: number): number {
  let end = open + 1;
  while (end < lines.length && !CLOSE.test(lines[end] ?? "")) end++;
  return end;
}

/** The directives of the HTML comment right before line `index` (blank lines between are allowed). */
function markerBefore(lines: readonly string[], index: number, where: string): Map<string, string> {
  const directives = new Map<string, string>();
  let j = index - 1;
  while (j >= 0 && (lines[j] ?? "").trim() === "") j--;
  const comment = /^<!--\s*(.*?)\s*-->$/.exec((lines[j] ?? "").trim());
  if (comment === null) return directives;
  for (const part of (comment[1] ?? "").split(",")) {
    const [name = "", ...rest] = part.split(":");
    const key = name.trim();
    if (key !== "not-checked" && key !== "continues" && key !== "compile-error") {
      throw new Error(`${where}: unknown marker "${part.trim()}"; use not-checked, continues or compile-error: ID`);
    }
    directives.set(key, rest.join(":").trim());
  }
  return directives;
}

/** The ```text block after a compile-error block: `TS 6.0.3  first line`, indented lines after it. */
function messagesAfter(lines: readonly string[], blockEnd: number, where: string): Map<string, string[]> {
  let open = blockEnd + 1;
  while (open < lines.length && (lines[open] ?? "").trim() === "") open++;
  if (!/^\s*```text\s*$/.test(lines[open] ?? ""))
    throw new Error(`${where}: a compile-error block must be followed by a \`\`\`text block of messages`);
  const messages = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of lines.slice(open + 1, closingFence(lines, open))) {
    const head = /^TS (\d+\.\d+\.\d+)\s+(.*)$/.exec(line);
    if (head !== null) {
      current = [head[2] as string];
      messages.set(head[1] as string, current);
    } else if (current !== undefined && /^\s+\S/.test(line)) current.push(line.trim());
    else if (line.trim() !== "") throw new Error(`${where}: cannot read the message line ${JSON.stringify(line)}`);
  }
  return messages;
}

/** The module written for a block: the blocks it continues, then its own code. */
export function moduleText(block: Block, code: string = block.code): { text: string; offset: number } {
  const earlier = block.before.map((b) => b.code).join("\n");
  const prefix = earlier === "" ? "" : earlier + "\n";
  // `export {}` makes every block a module, so top-level await works and names stay apart.
  const text = `${prefix}${code}\nexport {};\n`.replaceAll(`from "./src/`, `from "${root}/src/`);
  return { text, offset: prefix.split("\n").length - 1 };
}

/** A file name for a block. */
export const fileOf = (block: Block): string => `${block.page.replace(/[^A-Za-z0-9]+/g, "_")}_${block.firstLine}.ts`;

/** The compiler options of the blocks: the project's, with `typed-state-graph` mapped to src/. */
export function blockCompilerOptions(): Record<string, unknown> {
  return {
    target: "es2022",
    lib: ["es2023"],
    module: "nodenext",
    moduleResolution: "nodenext",
    types: ["node"],
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    verbatimModuleSyntax: true,
    skipLibCheck: true,
    noEmit: true,
    paths: {
      "typed-state-graph": [join(root, "src/index.ts")],
      "typed-state-graph/*": [join(root, "src/*/index.ts")],
    },
  };
}

/**
 * Whether a documented message line matches a line the compiler printed. A `…` at the start or the end
 * stands for text left out there.
 */
export function messageMatches(documented: string, printedLine: string): boolean {
  const head = documented.startsWith("… ");
  const tail = documented.endsWith(" …");
  const text = sortedLiteralUnions(documented.slice(head ? 2 : 0, tail ? -2 : undefined));
  // The order TypeScript prints a union of literals in follows the order it met them, which any other
  // code in the program can change: the docs quote the members, not that order.
  const printed = sortedLiteralUnions(printedLine);
  if (head && tail) return printed.includes(text);
  if (head) return printed.endsWith(text);
  if (tail) return printed.startsWith(text);
  return printed === text;
}

/** Each union of string literals (`"b" | "a"`) with its members sorted (`"a" | "b"`). */
function sortedLiteralUnions(text: string): string {
  return text.replace(/"[^"]*"(?: \| "[^"]*")+/g, (union) => union.split(" | ").sort().join(" | "));
}
