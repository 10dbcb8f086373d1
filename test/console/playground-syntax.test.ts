/**
 * The playground checks the JSON it would send before sending it (docs/console.md): malformed JSON is shown with
 * its line and column and marked in the editor, and no request leaves the page.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cliEnv } from '../support/servers/http-harness.js';
import { CLI_PATH, REPO_ROOT } from '../support/servers/http-harness-paths.js';
import { startServe, type ServeProcess } from '../support/servers/serve-process.js';
import { describeBrowser, launchChromium, screenshot } from './browser-harness.js';

const SAMPLE = readFileSync(join(REPO_ROOT, 'examples', 'sample-template.pptx'));

describeBrowser('the playground and malformed JSON', () => {
  let serve: ServeProcess;
  let dataDir: string;
  let browser: Browser;
  let page: Page;
  const sent: string[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'deckforge-playground-syntax-'));
    serve = await startServe(dataDir, { DECKFORGE_LOG_LEVEL: 'warn' });
    const account = JSON.parse(
      execFileSync(
        process.execPath,
        [CLI_PATH, 'accounts', 'create', '--email', 'pat@example.test', '--json'],
        {
          env: cliEnv(dataDir),
          encoding: 'utf8',
        },
      ),
    ) as { email: string; password: string };
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    page.on('request', (request) => {
      if (request.method() === 'POST') sent.push(new URL(request.url()).pathname);
    });
    await page.goto(`${serve.base}/console/sign-in`);
    await page.getByLabel('E-mail').fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/console/tokens');
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await serve?.kill();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('names the line and column, marks the spot and sends nothing', async () => {
    await page.goto(`${serve.base}/console/playground`);
    await page.locator('#template-file').setInputFiles({
      name: 'sample.pptx',
      mimeType: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
      buffer: SAMPLE,
    });
    await page.getByRole('button', { name: 'Inspect' }).click();
    const editor = page.locator('#json-data');
    await editor.waitFor();
    // A trailing comma on line 4: the object's next key is missing.
    await editor.fill('{\n  "presentation": {\n    "template": "sample.pptx",\n    "slides": [],\n  }\n}');
    sent.length = 0;
    for (const button of ['Generate', 'Submit job']) {
      await page.getByRole('button', { name: button }).click();
      await expect
        .poll(() => page.locator('#outcome .message.error').textContent())
        .toBe(
          'jsonData is not valid JSON at line 5, column 3: unexpected "}", expected a property name in double ' +
            'quotes; remove the "," before this "}" (JSON allows no trailing comma). Nothing was sent.',
        );
    }
    expect(sent).toEqual([]);
    expect(await editor.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#syntax-excerpt mark').textContent()).toBe('}');
    const selected = await editor.evaluate((node) => {
      const area = node as unknown as { selectionStart: number };
      return area.selectionStart;
    });
    expect(selected).toBe(
      '{\n  "presentation": {\n    "template": "sample.pptx",\n    "slides": [],\n  '.length,
    );
    await screenshot(page, 'playground-syntax-error');
  });
});
