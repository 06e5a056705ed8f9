/**
 * Identifiers and label text for the diagram formats. Ids are generated, never the node names
 * themselves: a name may hold quotes, brackets, spaces, Unicode or a keyword of the format.
 */

/** Words Mermaid or DOT read as syntax when they stand as an id (compared case-insensitively). */
const RESERVED_IDS = new Set([
  "end",
  "graph",
  "flowchart",
  "subgraph",
  "style",
  "linkstyle",
  "classdef",
  "class",
  "click",
  "call",
  "href",
  "direction",
  "default",
  "node",
  "edge",
  "digraph",
  "strict",
]);

/**
 * Hands out ids that both Mermaid and DOT accept bare: `[A-Za-z_][A-Za-z0-9_]*`, no keyword, each
 * distinct. A readable name keeps its spelling; each run of other characters becomes one `_`, and a suffix
 * resolves clashes.
 */
export class IdAllocator {
  readonly #used = new Set<string>();

  /** Reserves an id as it is (for START, END and the junctions, whose ids are chosen). */
  take(id: string): string {
    return this.#unique(id);
  }

  /** A fresh id derived from a node name. */
  forName(name: string): string {
    let id = name
      .replace(/[^A-Za-z0-9]+/g, "_")
      .replace(/^_|_$/g, "")
      .slice(0, 40);
    if (id === "") id = "n";
    else if (/^[0-9]/.test(id) || RESERVED_IDS.has(id.toLowerCase())) id = `n_${id}`;
    return this.#unique(id);
  }

  #unique(id: string): string {
    let candidate = id;
    for (let n = 2; this.#used.has(candidate.toLowerCase()); n++) candidate = `${id}_${n}`;
    // Lower-cased: DOT keywords are case-insensitive, and two ids differing only in case read badly.
    this.#used.add(candidate.toLowerCase());
    return candidate;
  }
}

/**
 * Text for a quoted Mermaid label (`id["…"]`, `-->|"…"|`). Mermaid decodes `#code;` entities, so the
 * characters that would end the quote, start an entity or read as HTML or Markdown are written that way.
 */
export function mermaidText(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are among those written as entities
  return text.replace(/["#&<>`|\\\u0000-\u001f\u007f]/g, (char) => `#${char.charCodeAt(0)};`);
}

/**
 * Text for a quoted DOT string. Inside a label a backslash starts an escape (`\n`, `\N`…), so it is
 * doubled; a quote is escaped; Graphviz decodes HTML entities, so `&` is written `&amp;`; line breaks
 * become `\n`.
 */
export function dotText(text: string): string {
  return text
    .replace(/[\\"]/g, (char) => `\\${char}`)
    .replace(/&/g, "&amp;")
    .replace(/\r\n|\r|\n/g, "\\n");
}
