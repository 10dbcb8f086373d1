/**
 * The console's Templates page in Chromium, against a real `deckforge serve`: Ann uploads a template, sees it
 * listed, uploads the same bytes (nothing new) and a second version (listed with its versions), is refused a
 * second name by her plan's limit with the API's own message, opens it in the inspector, generates from the
 * playground without uploading it (the latest version by its name, an older one by its id; each deck checked by
 * expectValidPptx), and deletes it after a confirmation. Bob's session sees none of it. Screenshots in
 * test-output/console/.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { inspect } from '../../src/engine/index.js';
import type { Plan } from '../../src/config/plans.js';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import { layoutsTemplate } from '../support/decks/layouts-template.js';
import { editPart } from '../support/decks/package-edit.js';
import { ensureBuilt } from '../support/servers/build-once.js';
import { cliEnv } from '../support/servers/http-harness.js';
import { CLI_PATH } from '../support/servers/http-harness-paths.js';
import { startServe, type ServeProcess } from '../support/servers/serve-process.js';
import { describeBrowser, launchChromium, screenshot } from './browser-harness.js';

const PASSWORD = 'correct horse battery';
/** One stored name at most: a second name is refused, a new version of the first is not. */
const PLANS: Plan[] = [
  { name: 'Single', allowedSlideCount: 1000, requestsPerMinute: 600, storedTemplates: 1 },
];

const FIRST = layoutsTemplate();
const SECOND = editPart(FIRST, 'ppt/slides/slide1.xml', (xml) =>
  xml.replace('<a:t>Centered Title</a:t>', '<a:t>Second version title</a:t>'),
);
const PPTX = 'application/vnd.openxmlformats-officedocument.presentationml.presentation';

const poll = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 20_000, interval: 50 });
const text = async (locator: Locator): Promise<string> => (await locator.textContent()) ?? '';

/** The first slide's title of a deck, as the engine reads it. */
function firstTitle(deck: Uint8Array): string | undefined {
  return inspect(deck).slides[0]?.shapes.find((s) => s.name === 'Title 1')?.text;
}

describeBrowser('the Templates page in Chromium', () => {
  let serve: ServeProcess;
  let dataDir: string;
  let browser: Browser;
  let page: Page;
  const confirms: string[] = [];
  let acceptConfirms = false;
  const ann = { email: `ann-${Date.now()}@example.test` };
  const bob = { email: `bob-${Date.now()}@example.test` };
  let firstVersionId = '';

  const signIn = async (tab: Page, email: string): Promise<void> => {
    await tab.goto(`${serve.base}/console/sign-in`);
    await tab.getByLabel('E-mail').fill(email);
    await tab.getByLabel('Password').fill(PASSWORD);
    await tab.getByRole('button', { name: 'Sign in' }).click();
    await tab.waitForURL('**/console/tokens');
  };

  const upload = async (name: string, bytes: Uint8Array, storedName?: string): Promise<string> => {
    await page.locator('#upload-file').setInputFiles({ name, mimeType: PPTX, buffer: Buffer.from(bytes) });
    await page.getByLabel('Name (optional)').fill(storedName ?? '');
    await page.getByRole('button', { name: 'Upload' }).click();
    const outcome = page.locator('form .status .message');
    await poll(() => text(outcome)).not.toMatch(/^Uploading/);
    return text(outcome);
  };

  const rows = (): Locator => page.locator('#templates-table tbody tr');

  beforeAll(async () => {
    await ensureBuilt();
    dataDir = mkdtempSync(join(tmpdir(), 'deckforge-console-templates-'));
    const env = cliEnv(dataDir, PLANS);
    for (const { email } of [ann, bob])
      execFileSync(
        process.execPath,
        [CLI_PATH, 'accounts', 'create', '--email', email, '--password', PASSWORD, '--plan', 'Single'],
        { env, stdio: 'pipe' },
      );
    serve = await startServe(dataDir, {
      DECKFORGE_PLANS: env.DECKFORGE_PLANS ?? '',
      DECKFORGE_LOG_LEVEL: 'warn',
    });
    browser = await launchChromium();
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      acceptDownloads: true,
    });
    page = await context.newPage();
    page.on('dialog', (dialog) => {
      confirms.push(`${dialog.type()}: ${dialog.message()}`);
      void (acceptConfirms ? dialog.accept() : dialog.dismiss());
    });
    await signIn(page, ann.email);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await serve?.kill();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('uploads a template and lists it with its version, size, slides and date', async () => {
    await page.getByRole('link', { name: 'Templates' }).click();
    await page.waitForURL('**/console/templates');
    await page.getByText('No stored templates yet.').waitFor({ state: 'visible' });
    const slides = inspect(FIRST).slides.length;
    expect(await upload('layouts.pptx', FIRST, 'quarterly.pptx')).toMatch(
      new RegExp(`^Stored “quarterly.pptx”, version 1 \\(${slides} slides, [\\d.,]+ KB\\)\\.$`),
    );
    await poll(() => rows().count()).toBe(1);
    const row = rows().first();
    expect(await text(row.locator('td[data-label="Name"]'))).toBe('quarterly.pptx');
    expect(await text(row.locator('td[data-label="Version"]'))).toBe('1');
    expect(await text(row.locator('td[data-label="Slides"]'))).toBe(String(slides));
    // The console's own formats: sizes in KB (1 024 bytes), moments with date and time.
    const kb = Math.round((FIRST.byteLength / 1024) * 10) / 10;
    expect((await text(row.locator('td[data-label="Size"]'))).replace(',', '.')).toBe(`${kb} KB`);
    expect(await text(row.locator('td[data-label="Stored"]'))).toMatch(
      new RegExp(`${new Date().getUTCFullYear()}.*\\d{1,2}:\\d{2}`),
    );

    // The same bytes again store nothing, and the page says so.
    expect(await upload('layouts.pptx', FIRST, 'quarterly.pptx')).toMatch(/nothing new was stored/);
    expect(await text(rows().first().locator('td[data-label="Version"]'))).toBe('1');
  });

  it('adds a second version under the same name and shows both versions', async () => {
    expect(await upload('quarterly.pptx', SECOND)).toMatch(/^Stored “quarterly.pptx”, version 2 /);
    await poll(() => text(rows().first().locator('td[data-label="Version"]'))).toBe('2');
    expect(await rows().count()).toBe(1);
    await page.getByRole('button', { name: 'Versions: quarterly.pptx' }).click();
    const versions = page.locator('#versions-table tbody tr');
    await poll(() => versions.count()).toBe(2);
    expect(await versions.locator('td[data-label="Version"]').allTextContents()).toEqual(['2', '1']);
    firstVersionId = await text(versions.nth(1).locator('td[data-label="Id"] code'));
    expect(firstVersionId).toMatch(/^tpl_/);
    await screenshot(page, 'templates');
  });

  it("refuses a second name past the plan's limit with the API's message", async () => {
    const refusal = await upload('other.pptx', FIRST);
    expect(refusal).toMatch(/^the Single plan keeps at most 1 stored templates and the account has 1: /);
    expect(await page.locator('form .status .message.error').count()).toBe(1);
    expect(await rows().count()).toBe(1);
  });

  it('opens the stored template in the inspector, its shapes drawn', async () => {
    await page.getByRole('button', { name: 'Inspect: quarterly.pptx version 2' }).first().click();
    await page.waitForURL('**/console/inspector');
    const inspected = inspect(SECOND);
    await poll(() => page.locator('figure.slide').count()).toBe(
      inspected.slides.length + inspected.layouts.length,
    );
    const slide0 = page.locator('figure.slide').first();
    for (const s of inspected.slides[0]!.shapes)
      await poll(() => slide0.locator(`[data-shape-name="${s.name}"]`).count()).toBe(1);
    await poll(() => text(slide0)).toContain('Second version title');
    expect(await text(page.locator('#drawings > p.muted'))).toMatch(
      /^quarterly\.pptx \(stored on the server\)/,
    );
  });

  it('generates from the playground without uploading the template: the latest by name, an older one by id', async () => {
    await page.goto(`${serve.base}/console/templates`);
    await page.getByRole('button', { name: 'Use in the playground: quarterly.pptx version 2' }).click();
    await page.waitForURL('**/console/playground');
    const editor = page.locator('#json-data');
    await editor.waitFor();
    const prefilled = JSON.parse(await editor.inputValue()) as { presentation: { template: string } };
    expect(prefilled.presentation.template).toBe('quarterly.pptx');
    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/console/api/generate')) sent.push(request.postData() ?? '');
    });
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Generate' }).click();
    const deck = new Uint8Array(readFileSync((await (await downloading).path())!));
    await expectValidPptx(deck, SECOND);
    expect(firstTitle(deck)).toBe('Second version title');
    // Only jsonData went: no file part carried the template.
    expect(sent).toHaveLength(1);
    expect(sent[0]).not.toContain('filename=');

    await page.goto(`${serve.base}/console/templates`);
    await page.getByRole('button', { name: 'Versions: quarterly.pptx' }).click();
    await page.getByRole('button', { name: 'Use in the playground: quarterly.pptx version 1' }).click();
    await page.waitForURL('**/console/playground');
    await editor.waitFor();
    const older = JSON.parse(await editor.inputValue()) as { presentation: { template: string } };
    expect(older.presentation.template).toBe(firstVersionId);
    const again = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Generate' }).click();
    const olderDeck = new Uint8Array(readFileSync((await (await again).path())!));
    await expectValidPptx(olderDeck, FIRST);
    expect(firstTitle(olderDeck)).toBe('Centered Title');
  });

  it('reads on a phone: every link of the navigation in sight, nothing wider than the screen', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.goto(`${serve.base}/console/templates`);
      await rows().first().waitFor();
      await page.getByRole('button', { name: 'Versions: quarterly.pptx' }).click();
      await page.locator('#versions-table tbody tr').first().waitFor();
      // At this width the navigation wraps into short rows: each link whole on the screen.
      const navItems = await page.locator('nav li').evaluateAll((items) =>
        items.map((item) => {
          const box = item.getBoundingClientRect();
          return { left: box.left, right: box.right };
        }),
      );
      expect(navItems.length).toBeGreaterThan(3);
      for (const item of navItems) {
        expect(item.left).toBeGreaterThanOrEqual(0);
        expect(item.right).toBeLessThanOrEqual(390);
      }
      const widest = await page.evaluate<number>(
        'Math.max(document.documentElement.scrollWidth, document.querySelector("main").scrollWidth)',
      );
      expect(widest).toBeLessThanOrEqual(390);
      await screenshot(page, 'templates-phone');
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });

  it("keeps Ann's templates from Bob's session", async () => {
    const context = await browser.newContext();
    const tab = await context.newPage();
    try {
      await signIn(tab, bob.email);
      await tab.goto(`${serve.base}/console/templates`);
      await tab.getByText('No stored templates yet.').waitFor({ state: 'visible' });
      const tries = await tab.evaluate(async (id) => {
        const session = (await (await fetch('/console/api/session')).json()) as { csrfToken: string };
        const read = await fetch(`/console/api/templates/${id}`);
        const remove = await fetch(`/console/api/templates/${id}`, {
          method: 'DELETE',
          headers: { 'x-csrf-token': session.csrfToken },
        });
        return { read: read.status, remove: remove.status };
      }, firstVersionId);
      expect(tries).toEqual({ read: 404, remove: 404 });
    } finally {
      await context.close();
    }
    await page.goto(`${serve.base}/console/templates`);
    await poll(() => rows().count()).toBe(1);
  });

  it('deletes the template with every version after a confirmation', async () => {
    await page.goto(`${serve.base}/console/templates`);
    await rows().first().waitFor();
    await page.getByRole('button', { name: 'Delete: quarterly.pptx' }).click();
    await poll(async () => confirms.length).toBe(1);
    expect(confirms[0]).toBe(
      'confirm: Delete the template “quarterly.pptx” with all 2 versions? A payload naming it stops working.',
    );
    expect(await rows().count()).toBe(1);
    acceptConfirms = true;
    await page.getByRole('button', { name: 'Delete: quarterly.pptx' }).click();
    await page.getByText('No stored templates yet.').waitFor({ state: 'visible' });
    expect(await text(page.locator('#templates-status'))).toBe('Deleted “quarterly.pptx” (2 versions).');
    const gone = await page.evaluate(
      async (id) => (await fetch(`/console/api/templates/${id}`)).status,
      firstVersionId,
    );
    expect(gone).toBe(404);
    expect(confirms).toHaveLength(2);
  });
});
