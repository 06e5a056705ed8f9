/** Every page of docs/ is linked from the README, and every relative link of the README and docs/ leads to a file that exists. */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { docPages, root } from "./_blocks.js";

/** Relative links outside code blocks and code spans: `[text](target)`. */
function relativeLinks(page: string): string[] {
  const text = readFileSync(join(root, page), "utf8")
    .replace(/^```[\s\S]*?^```/gm, "")
    .replace(/`[^`\n]*`/g, "");
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1] as string).filter((target) => !/^[a-z]+:|^#/.test(target));
}

describe("docs links", () => {
  it("the README links every page of docs/", () => {
    const linked = new Set(relativeLinks("README.md").map((target) => target.replace(/#.*$/, "")));
    expect(docPages().filter((page) => page !== "README.md" && !linked.has(page))).toEqual([]);
  });

  it.each(docPages())("%s: every relative link leads to a file that exists", (page) => {
    const broken = relativeLinks(page).filter((target) => !existsSync(resolve(root, dirname(page), target.replace(/#.*$/, ""))));
    expect(broken).toEqual([]);
  });
});
