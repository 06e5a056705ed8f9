/**
 * `tsg inspect` in a real browser: the page draws the report graph, a live run lights its nodes up to
 * publish, a checkpoint's diff shows what revise_draft changed, a thread paused by `tsg report` is
 * approved and published, coverage marks the transitions never taken, and bad input is a message in
 * the page. The screenshot of docs/inspect.md is taken here.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setInspectLifetime } from "../../src/cli/inspect.js";
import { runCli } from "../../src/cli/run-cli.js";
import type { Inspector } from "../../src/inspect/server.js";
import { chromiumMissing, launchChromium } from "./chromium.js";

const missing = chromiumMissing();
const home = process.cwd();
/** docs/inspect.png is rewritten only when asked (`TSG_SCREENSHOT=1 npm run test:browser`), so a test run leaves the checkout clean. */
const KEEP_SCREENSHOT = process.env["TSG_SCREENSHOT"] === "1";

const quiet = { stdout: { write: () => true }, stderr: { write: () => true } };

/** Starts `tsg inspect ARGS` in this process; resolves with the inspector and a function that stops it. */
async function inspect(...argv: string[]): Promise<{ inspector: Inspector; stop: () => Promise<number> }> {
  let stop!: () => void;
  const stopped = new Promise<void>((done) => (stop = done));
  const started = new Promise<Inspector>((done) => setInspectLifetime({ started: done, stopped }));
  const exit = runCli(["inspect", ...argv, "--port", "0"], quiet);
  const inspector = await Promise.race([started, exit.then((code) => Promise.reject(new Error(`tsg inspect exited with ${code}`)))]);
  return {
    inspector,
    stop: async () => {
      stop();
      return exit;
    },
  };
}

describe.skipIf(missing !== undefined)("tsg inspect in Chromium", () => {
  let dir = "";
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  let server: Awaited<ReturnType<typeof inspect>>;
  let page: Page;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "tsg-inspect-e2e-"));
    // From the database's directory, so the page (and the screenshot) names it as a user would: tsg.sqlite.
    process.chdir(dir);
    const db = "tsg.sqlite";
    // A thread paused by the CLI, as a person leaves it: the inspector approves it.
    expect(await runCli(["report", "--thread", "brief-1", "--db", db, "--interrupt-before", "publish"], quiet)).toBe(3);
    server = await inspect("report", "--db", db, "--allow-writes", "--thread", "brief-1");
    browser = await launchChromium();
    page = await browser.context.newPage();
    await page.goto(server.inspector.url);
    await page.waitForSelector("body[data-ready=true]");
  });

  afterAll(async () => {
    await browser?.close();
    expect(await server?.stop()).toBe(0);
    process.chdir(home);
    rmSync(dir, { recursive: true, force: true });
  });

  it("draws the graph from its spec: START, the nodes, END, the route keys", async () => {
    for (const node of ["__start__", "collect", "check_draft", "publish", "hold", "__end__"])
      expect(await page.locator(`#graph .node[data-node="${node}"]`).count()).toBe(1);
    expect(await page.locator('#graph .link[data-key="revise"]').count()).toBe(1);
  });

  it("runs the report live: nodes light up as steps stream, up to publish", async () => {
    await page.uncheck("#pause-publish");
    await page.click("#run");
    await page.waitForSelector('#graph .node[data-node="publish"].visited');
    await expect.poll(() => page.textContent("#run-status")).toContain("done");
    expect(
      await page.locator("#steps li:not(.custom)").evaluateAll((items) => items.map((item) => item.getAttribute("data-node"))),
    ).toEqual(["collect", "write_draft", "check_draft", "revise_draft", "check_draft", "publish"]);
    expect(await page.textContent("#run-state")).toContain('"status": "completed"');
  });

  it("selects a checkpoint and shows its diff against the previous one", async () => {
    await page.click('#timeline button:has-text("wrote revise_draft")');
    // Polled, not read once: the diff is fetched after the click, and until it arrives the table can
    // still hold the previous selection's rows (a single read failed so in a fresh-clone CI run).
    await expect.poll(() => page.textContent("#checkpoint-title")).toMatch(/^Checkpoint 4 /);
    await expect
      .poll(() =>
        page.locator("#diff tbody tr").evaluateAll((trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent).join("\t"))),
      )
      .toContainEqual(expect.stringMatching(/^draft\.notice\tchanged/));
  });

  it("approves a thread tsg report paused before publish, and it publishes", async () => {
    await page.fill("#thread-id", "brief-1");
    await page.click("#open-thread");
    await expect.poll(() => page.textContent("#thread-status")).toContain("paused before publish");
    await page.click("#approve");
    await expect.poll(() => page.textContent("#run-status")).toContain("approve: done (thread brief-1)");
    await page.waitForSelector('#graph .node[data-node="publish"].visited');
    await expect.poll(() => page.textContent("#timeline li:first-child")).toContain("wrote publish");
  });

  it("overlays coverage: the hold route, never taken, is dashed red", async () => {
    await page.click("#show-coverage");
    await expect.poll(() => page.textContent("#coverage-summary")).toContain("7/9 transitions taken by 2 runs");
    expect(await page.locator("#graph .link.missed").evaluateAll((links) => links.map((link) => link.getAttribute("data-to")))).toEqual([
      "hold",
      "__end__",
    ]);
    expect(await page.locator("#coverage-missing li").allTextContents()).toEqual(["check_draft [hold] → hold", "hold → END"]);
    const path = KEEP_SCREENSHOT ? resolve(import.meta.dirname, "../../docs/inspect.png") : join(dir, "inspect.png");
    expect((await page.screenshot({ path, fullPage: true })).length).toBeGreaterThan(10_000);
  });

  it("resumes from an older checkpoint: the thread forks (time travel) and pauses before publish again", async () => {
    await page.click('#timeline button:has-text("wrote write_draft")');
    await expect.poll(() => page.textContent("#checkpoint-title")).toMatch(/^Checkpoint 2 /);
    await page.click("#resume-here");
    await expect.poll(() => page.textContent("#run-status")).toContain("resume: paused before publish (thread brief-1)");
    await expect.poll(() => page.locator("#timeline li").count()).toBe(10);
    expect(await page.textContent("#timeline li:first-child")).toContain("step 5 · loop · wrote check_draft · next publish");
  });

  it("an unknown thread is a message in the page", async () => {
    await page.fill("#thread-id", "no-such-thread");
    await page.click("#open-thread");
    await expect.poll(() => page.textContent("#thread-status")).toContain('thread "no-such-thread" has no checkpoint in');
  });

  it("a module without a graph is a message in the page, not a blank one", async () => {
    const other = await inspect(resolve(import.meta.dirname, "../cli/fixtures/graphs.mjs#nothing"));
    try {
      const second = await browser.context.newPage();
      await second.goto(other.inspector.url);
      await second.waitForSelector(".problem");
      expect(await second.textContent(".problem")).toContain('has no export "nothing"');
      await second.close();
    } finally {
      await other.stop();
    }
  });

  // Last: its run would change the coverage counted above.
  it("builds the run's input form from the input's JSON Schema: a list per enum, a checkbox per boolean and per city", async () => {
    expect(await page.isHidden("#run-input")).toBe(true);
    expect(
      await page.locator("#input-form .field").evaluateAll((fields) => fields.map((field) => field.getAttribute("data-field"))),
    ).toEqual(["cities", "includeFahrenheit", "language"]);
    expect(await page.locator("#field-language option").allTextContents()).toEqual(["(leave out)", "en", "zh-CN"]);
    await page.selectOption("#field-language", "zh-CN");
    await page.uncheck("#field-includeFahrenheit");
    await page.uncheck('#field-cities input[value="Tokyo"]');
    await page.uncheck("#pause-publish");
    await page.click("#run");
    await expect.poll(() => page.textContent("#run-status")).toMatch(/^run: done/);
    const state = JSON.parse((await page.textContent("#run-state")) ?? "{}") as Record<string, unknown>;
    expect(state).toMatchObject({ cities: ["Paris"], includeFahrenheit: false, language: "zh-CN", status: "completed" });
  });
});

if (missing !== undefined) {
  describe("tsg inspect in Chromium", () => {
    it.skip(missing, () => {});
  });
}
