/**
 * Every page of docs/ is reached from the README, and every relative link of the README and docs/ leads to a file
 * that exists and to a heading that exists. The README's and the guide's links must also work in the package a
 * user installs: each leads to a file `npm pack` ships.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { docPages, root } from "./_blocks.js";

/** A page's text outside code blocks. */
const prose = (page: string): string => readFileSync(join(root, page), "utf8").replace(/^```[\s\S]*?^```/gm, "");

/** Links outside code blocks and code spans (`[text](target)`), but those to other sites (`https:`, `mailto:`). */
function localLinks(page: string): string[] {
  const text = prose(page).replace(/`[^`\n]*`/g, "");
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1] as string).filter((target) => !/^[a-z]+:/.test(target));
}

/** Links to other files (a page's own anchors, `#…`, left out). */
const relativeLinks = (page: string): string[] => localLinks(page).filter((target) => !target.startsWith("#"));

/** Where a link leads, from the repository's root: its file (the page itself for `#…`) and its anchor. */
function destination(page: string, target: string): { file: string; anchor: string | undefined } {
  const [path = "", anchor] = target.split("#");
  return { file: path === "" ? page : relative(root, resolve(root, dirname(page), path)), anchor };
}

/** The anchors GitHub makes of a page's headings, each with its heading: lower case, punctuation dropped, spaces as dashes; a repeat gets -1, -2… */
function headingsOf(page: string): Map<string, string> {
  const seen = new Map<string, number>();
  const anchors = new Map<string, string>();
  for (const [, heading = ""] of prose(page).matchAll(/^#{1,6}\s+(.*)$/gm)) {
    const base = heading
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const repeat = seen.get(base) ?? 0;
    seen.set(base, repeat + 1);
    anchors.set(repeat === 0 ? base : `${base}-${repeat}`, heading.trim());
  }
  return anchors;
}

const anchorsOf = (page: string): Set<string> => new Set(headingsOf(page).keys());

/**
 * Links into the generated API pages whose anchor leads to another symbol's heading: `[`Send`](…#send)`
 * must lead to the heading `Send` (or `Send()`; for `Owner.member`, to `member`). typedoc numbers repeated
 * headings (`stategraph-2`), so an anchor can silently point elsewhere after the pages are regenerated.
 */
function misdirectedApiLinks(page: string): string[] {
  const links = [...prose(page).matchAll(/\[`([^`]+)`\]\(([^)\s]*api\/[^)\s]*#[^)\s]+)\)/g)];
  return links.flatMap(([, label = "", target = ""]) => {
    const { file, anchor = "" } = destination(page, target);
    const heading = existsSync(join(root, file)) ? headingsOf(file).get(anchor) : undefined;
    const symbol = label.split(".").at(-1);
    return heading?.replace(/\\/g, "").replace(/\(\)$/, "") === symbol ? [] : [`${label} → ${target} (heading: ${heading ?? "none"})`];
  });
}

/** The links of a page whose file is a page that lacks the anchor they name. */
function deadAnchors(page: string): string[] {
  return localLinks(page).filter((target) => {
    const { file, anchor } = destination(page, target);
    return anchor !== undefined && file.endsWith(".md") && existsSync(join(root, file)) && !anchorsOf(file).has(anchor);
  });
}

/** The files `npm pack` puts in the tarball, as `files` in package.json selects them (no build needed: no link leads into dist/). */
function packedFiles(): Set<string> {
  const output = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: root, encoding: "utf8" });
  const [packed] = JSON.parse(output) as { files: { path: string }[] }[];
  return new Set((packed?.files ?? []).map((file) => file.path));
}

describe("docs links", () => {
  it("every page of docs/ is reached from the README by following links (through the guide and the reference)", () => {
    const reached = new Set(["README.md"]);
    const queue = ["README.md"];
    for (let page = queue.shift(); page !== undefined; page = queue.shift()) {
      for (const target of relativeLinks(page)) {
        const linked = relative(root, resolve(root, dirname(page), target.replace(/#.*$/, "")));
        if (linked.endsWith(".md") && !reached.has(linked)) {
          reached.add(linked);
          queue.push(linked);
        }
      }
    }
    expect(docPages().filter((page) => !reached.has(page))).toEqual([]);
  });

  it.each(docPages())("%s: every relative link leads to a file that exists", (page) => {
    const broken = relativeLinks(page).filter((target) => !existsSync(resolve(root, dirname(page), target.replace(/#.*$/, ""))));
    expect(broken).toEqual([]);
  });

  it.each(docPages())("%s: every anchor it links to is a heading of its page", (page) => {
    expect(deadAnchors(page)).toEqual([]);
  });

  it.each(docPages())("%s: each link to an API page leads to the heading of the symbol it names", (page) => {
    expect(misdirectedApiLinks(page)).toEqual([]);
  });
});

describe("the README's and the guide's links, in the installed package", () => {
  const packed = packedFiles();
  const pages = ["README.md", ...docPages().filter((page) => page.startsWith("docs/guide/"))];

  it("finds the package's files and the guide (a guard against a listing that matches nothing)", () => {
    expect(packed.has("README.md")).toBe(true);
    expect(pages.length).toBeGreaterThan(7);
  });

  it.each(pages)("%s: every relative link leads to a file the package ships", (page) => {
    expect(relativeLinks(page).filter((target) => !packed.has(destination(page, target).file))).toEqual([]);
  });
});
