/**
 * Chromium from the system (Debian's `chromium`, /usr/bin/chromium) driven by playwright-core: no browser is
 * downloaded. Without it the browser suites are skipped, saying so; `.ci/run` installs it, so CI never skips.
 * Playwright gives every launch a fresh, temporary user-data-dir (profile), removed when the browser closes.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { describe } from 'vitest';
import { REPO_ROOT } from '../support/servers/http-harness-paths.js';

export const CHROMIUM_PATH = process.env.DECKFORGE_CHROMIUM ?? '/usr/bin/chromium';
export const CHROMIUM_PRESENT = existsSync(CHROMIUM_PATH);

/** Where the screenshots go (gitignored); look at them after a run. */
export const SCREENSHOT_DIR = join(REPO_ROOT, 'test-output', 'console');

/** A suite that needs Chromium: reported skipped, with the reason printed, when it is missing. */
export const describeBrowser: (name: string, body: () => void) => void = CHROMIUM_PRESENT
  ? describe
  : (name) => {
      console.warn(
        `${CHROMIUM_PATH} not found: skipping "${name}" (install Debian's chromium; .ci/run does)`,
      );
      describe.skip(name, () => {});
    };

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}
