/**
 * Debian's Chromium for the browser suite, launched headless with a fresh profile and none of the
 * background traffic (updates, sync, component downloads): the inspector must work with no network.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext } from "playwright-core";

/** Where Debian's `chromium` package puts the browser. */
export const CHROMIUM = "/usr/bin/chromium";

/**
 * Why the suite skips, or `undefined` when Chromium is installed. A missing Chromium fails the suite
 * (install it: `apt-get update && apt-get install -y chromium`), unless .ci/run tried to install it and
 * could not (`TSG_CHROMIUM_INSTALL_FAILED=1`): then the suite skips, and says so.
 */
export function chromiumMissing(): string | undefined {
  if (existsSync(CHROMIUM)) return undefined;
  const install = "apt-get update && apt-get install -y chromium";
  if (process.env["TSG_CHROMIUM_INSTALL_FAILED"] !== "1")
    throw new Error(`${CHROMIUM} is not installed, and the browser suite needs it: ${install} (.ci/run does this when it is missing).`);
  return `${CHROMIUM} is absent and .ci/run could not install it (${install} failed): the browser suite did not run`;
}

/** A browser context on a fresh `--user-data-dir`, removed by `close()`. */
export async function launchChromium(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), "tsg-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
    viewport: { width: 1280, height: 900 },
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
