/**
 * The package shows what it claims: every file the README and the shipped docs link (pages and the
 * images they show) is in the tarball `npm pack` would publish. Lists the tarball with
 * `npm pack --dry-run --ignore-scripts` (no build, nothing written).
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { root } from "../docs/_blocks.js";

/** The Markdown files of docs/, in every folder but the generated API reference. */
function markdownUnder(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return path === "docs/api" ? [] : markdownUnder(path);
    return entry.name.endsWith(".md") ? [path] : [];
  });
}

/** Relative links of a page outside code, resolved to repository paths (anchors dropped). */
function linkedFiles(page: string): string[] {
  const text = readFileSync(join(root, page), "utf8")
    .replace(/^```[\s\S]*?^```/gm, "")
    .replace(/`[^`\n]*`/g, "");
  return [...text.matchAll(/\]\(([^)\s]+)\)|<img [^>]*src="([^"]+)"/g)]
    .map((match) => (match[1] ?? match[2]) as string)
    .filter((target) => !/^[a-z]+:|^#/.test(target))
    .map((target) => relative(root, resolve(root, dirname(page), target.replace(/#.*$/, ""))));
}

let packed: Set<string>;

beforeAll(() => {
  const listing = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: root, encoding: "utf8" });
  const [tarball] = JSON.parse(listing) as [{ files: { path: string }[] }];
  packed = new Set(tarball.files.map((file) => file.path));
}, 60_000);

describe("the tarball", () => {
  const shipped = ["README.md", ...markdownUnder("docs")];

  it("ships the README and every page of docs/, docs/reference/ included", () => {
    expect(shipped).toContain("docs/reference/errors.md");
    expect(shipped.filter((page) => !packed.has(page))).toEqual([]);
  });

  it.each(shipped)("holds every file %s links", (page) => {
    const linked = linkedFiles(page).filter((path) => existsSync(join(root, path)));
    expect(linked.filter((path) => !packed.has(path))).toEqual([]);
  });

  it("holds the inspector screenshot the README shows", () => {
    expect(linkedFiles("README.md")).toContain("docs/inspect.png");
    expect(packed.has("docs/inspect.png")).toBe(true);
  });
});
