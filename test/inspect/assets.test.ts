/** The page ships in the package: every file the server serves is in assets/inspect, which package.json `files` lists, and it names no other host. */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { isAsset } from "../../src/inspect/http.js";

const root = resolve(import.meta.dirname, "../..");
const assets = readdirSync(join(root, "assets/inspect")).sort();

describe("the inspector's page", () => {
  it("is in package.json files, and the server serves each of its files", () => {
    const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { files: string[]; dependencies?: object };
    expect(manifest.files).toContain("assets/inspect");
    expect(assets).toEqual(["app.js", "form.js", "index.html", "style.css"]);
    for (const file of assets) expect(isAsset(file)).toBe(true);
    // No browser bundle among the dependencies: the page is plain JavaScript. The one dependency is types only.
    expect(Object.keys(manifest.dependencies ?? {})).toEqual(["@standard-schema/spec"]);
  });

  it("loads nothing from another host", () => {
    for (const file of assets)
      expect(readFileSync(join(root, "assets/inspect", file), "utf8")).not.toMatch(/(?:https?:)?\/\/[a-z0-9.-]+\.[a-z]{2,}\//i);
  });
});
