/** Every page of docs/ is reached from the README, and every relative link of the README and docs/ leads to a file that exists. */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
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
});
