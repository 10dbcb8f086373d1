/**
 * The console in a real browser: Chromium from the system, driven by playwright-core, against a real
 * `deckforge serve` with sign-up open and a real SMTP server started here. A visitor signs up (the mail is caught),
 * confirms, signs in, makes a token that a plain HTTP client then uses, revokes it, inspects a template, generates
 * from the playground (a deck that passes expectValidPptx) and follows a job, reads usage and jobs; a hostile shape
 * name shows literally, CSRF-less requests and another account's reach are refused, wrong passwords slow sign-in
 * down. The server has no renderer (its Python cannot drive LibreOffice, on every machine): the inspector draws
 * boxes alone and says why; inspector-pictures.test.ts has the slide pictures. Every page is saved as a
 * screenshot in test-output/console/.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { generate, inspect } from '../../src/engine/index.js';
import { CLI_PATH } from '../support/servers/http-harness-paths.js';
import { startServe, type ServeProcess } from '../support/servers/serve-process.js';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import { corpusFile, itCorpus, readCorpus } from '../support/corpus/corpus.js';
import { layoutsTemplate } from '../support/decks/layouts-template.js';
import { editPart } from '../support/decks/package-edit.js';
import { describeBrowser, launchChromium, screenshot } from './browser-harness.js';
import { startMailCatcher, type MailCatcher } from '../support/servers/mail-catcher.js';

const HOSTILE = '<img src=x onerror=alert(1)>';

/** The suite's layouts template with slide 6's "TextBox 3" renamed to markup. */
const TEMPLATE = editPart(layoutsTemplate(), 'ppt/slides/slide7.xml', (xml) =>
  xml.replace('name="TextBox 3"', 'name="&lt;img src=x onerror=alert(1)&gt;"'),
);

const PASSWORD = 'correct horse battery';

/** Web pages settle in their own time: retry an expectation until it holds (or 20 s pass). */
const poll = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 20_000, interval: 50 });
const text = async (locator: Locator): Promise<string> => (await locator.textContent()) ?? '';

/** In the page: how wide the document is (wider than the screen scrolls sideways). */
const PAGE_WIDTH = 'document.documentElement.scrollWidth';

/**
 * In the page: the smallest text on screen, in CSS pixels, among the elements of the navigation and the main part
 * that hold text. An SVG's text is drawn scaled with its drawing: its height on screen is what a reader sees.
 */
const SMALLEST_TEXT = `Math.min(...[...document.querySelectorAll('main *, nav *')]
  .filter((node) => [...node.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim() !== ''))
  .map((node) => {
    const box = node.getBoundingClientRect();
    if (box.width === 0) return Infinity;
    return node instanceof SVGElement ? box.height : parseFloat(getComputedStyle(node).fontSize);
  }))`;

describeBrowser('the console in Chromium', () => {
  let mail: MailCatcher;
  let serve: ServeProcess;
  let dataDir: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const dialogs: string[] = [];
  const confirms: string[] = [];
  let acceptConfirms = false;
  const ann = { email: `ann-${Date.now()}@example.test`, key: '' };
  let tokenValue = '';

  beforeAll(async () => {
    mail = await startMailCatcher();
    dataDir = mkdtempSync(join(tmpdir(), 'deckforge-console-browser-'));
    serve = await startServe(dataDir, {
      DECKFORGE_SIGNUP: 'open',
      DECKFORGE_SMTP_URL: mail.url,
      DECKFORGE_MAIL_FROM: 'Deckforge <console@example.test>',
      DECKFORGE_LOG_LEVEL: 'warn',
      // No Python with LibreOffice's UNO bridge: previews are off here, whatever the machine has.
      DECKFORGE_RENDER_PYTHON: join(tmpdir(), 'deckforge-no-such-python'),
    });
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    page.on('dialog', (dialog) => {
      // The console asks before it revokes a token; any other dialog (an injected alert) is recorded.
      if (dialog.type() === 'confirm') {
        confirms.push(dialog.message());
        void (acceptConfirms ? dialog.accept() : dialog.dismiss());
        return;
      }
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
  });

  afterAll(async () => {
    await browser?.close();
    await serve?.kill();
    await mail?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const open = async (path: string): Promise<void> => {
    await page.goto(`${serve.base}${path}`);
    await page.locator('main h1').waitFor();
  };

  it('signs up: the confirmation mail is caught with the key and a link; the link confirms the address', async () => {
    // The pages before signing in, at phone width too: one line of navigation, nothing cut off (looked at).
    await page.setViewportSize({ width: 390, height: 844 });
    for (const name of ['sign-in', 'sign-up', 'reset', 'confirm']) {
      await open(`/console/${name}`);
      await screenshot(page, `${name}-phone`);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await open('/console/sign-up');
    await screenshot(page, 'sign-up');
    await page.getByLabel('E-mail').fill(ann.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect.poll(() => page.locator('.message.success').textContent()).toBeTruthy();
    const caught = await mail.next(ann.email);
    const link = /\/console\/confirm\?token=([A-Za-z0-9_-]+)/.exec(caught.text);
    const key = /keep it safe:\s*\r?\n\s+(\S+)/.exec(caught.text);
    expect(link, caught.text).not.toBeNull();
    expect(key, caught.text).not.toBeNull();
    ann.key = key![1]!;

    // Not yet confirmed: sign-in says so.
    await open('/console/sign-in');
    await page.getByLabel('E-mail').fill(ann.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await poll(() => text(page.locator('.message.error'))).toMatch(/confirm/i);

    await open(`/console/confirm?token=${link![1]}`);
    await poll(() => text(page.locator('.message.success'))).toContain(`${ann.email} is confirmed`);
    await screenshot(page, 'confirm');
  });

  it('refuses a wrong password, then signs in with the right one', async () => {
    await open('/console/sign-in');
    await page.getByLabel('E-mail').fill(ann.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('.message.error').waitFor({ state: 'visible' });
    await screenshot(page, 'sign-in');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/console/tokens');
    await poll(() => text(page.locator('.who'))).toBe(ann.email);
  });

  it('makes a token that a plain HTTP client uses, lists it, and after revoking it the API refuses it', async () => {
    await open('/console/tokens');
    await page.getByLabel('Name (optional)').fill('Nightly <b>report</b> export');
    await page.getByRole('button', { name: 'Create a token' }).click();
    tokenValue = await page.locator('#new-token').inputValue();
    expect(tokenValue.length).toBeGreaterThan(20);
    const curl = await page.locator('#curl-line').inputValue();
    expect(curl).toBe(`curl -H 'Authorization: Bearer ${tokenValue}' '${serve.base}/v1.0/usage'`);
    const usage = await fetch(`${serve.base}/v1.0/usage`, {
      headers: { authorization: `Bearer ${tokenValue}` },
    });
    expect(usage.status).toBe(200);
    expect(((await usage.json()) as { isSuccess: boolean }).isSuccess).toBe(true);
    await poll(() => page.locator('tbody tr').count()).toBe(1);
    // The name shows as given, as text (never as markup).
    expect(await text(page.locator('tbody tr td[data-label="Name"]'))).toBe('Nightly <b>report</b> export');
    await screenshot(page, 'tokens');

    // The token of a second creation is listed too; revoke the first.
    await page.reload();
    await page.locator('tbody tr').first().waitFor();
    expect(await page.content()).not.toContain(tokenValue);
    // Asked first: dismissing keeps the token, accepting revokes it.
    await page.getByRole('button', { name: /^Revoke/ }).click();
    await poll(async () => confirms.length).toBe(1);
    expect(confirms[0]).toBe(
      'Revoke the token “Nightly <b>report</b> export”? Programs using it stop working.',
    );
    expect(await page.locator('tbody tr').count()).toBe(1);
    acceptConfirms = true;
    await page.getByRole('button', { name: /^Revoke/ }).click();
    await page.getByText('No live tokens.').waitFor({ state: 'visible' });
    const refused = await fetch(`${serve.base}/v1.0/usage`, {
      headers: { authorization: `Bearer ${tokenValue}` },
    });
    expect(refused.status).toBe(401);
  });

  it('draws every slide and layout of an owned template; the hostile name shows as text and copies as an entry', async () => {
    const inspected = inspect(TEMPLATE);
    expect(inspected.slides[6]!.shapes.map((s) => s.name)).toContain(HOSTILE);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: serve.base });
    await open('/console/inspector');
    await page.locator('#template-file').setInputFiles({
      name: 'layouts.pptx',
      mimeType: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
      buffer: Buffer.from(TEMPLATE),
    });
    await page.getByRole('button', { name: 'Inspect' }).click();
    const figures = page.locator('figure.slide');
    await poll(() => figures.count()).toBe(inspected.slides.length + inspected.layouts.length);
    // Drawn at the slide's aspect ratio.
    const viewBox = await page.locator('svg.slide-drawing').first().getAttribute('viewBox');
    const [, , w, h] = viewBox!.split(' ').map(Number);
    expect(w! / h!).toBeCloseTo(inspected.slideSize!.cx / inspected.slideSize!.cy, 3);
    // Every shape of slide 0 is a box with its name.
    const slide0 = figures.first();
    for (const s of inspected.slides[0]!.shapes)
      await poll(() => slide0.locator(`[data-shape-name="${s.name}"]`).count()).toBe(1);

    const hostile = page.locator('g.shape').filter({ has: page.locator('title', { hasText: HOSTILE }) });
    await poll(() => hostile.count()).toBe(1);
    await poll(() => text(hostile.locator('text.in-box'))).toContain('<img src=x');
    // Without a renderer: boxes alone, and a line saying why.
    await poll(() => text(page.locator('#picture-note'))).toMatch(
      /^Boxes alone: this server cannot draw slide pictures \(.+\)\.$/,
    );
    expect(await page.locator('main img').count()).toBe(0);
    await hostile.focus();
    await page.keyboard.press('Enter');
    await poll(() => text(page.locator('#picked .shape-name'))).toBe(HOSTILE);
    const entry = JSON.parse((await page.locator('#picked-entry').textContent()) ?? '') as { name: string };
    expect(entry).toEqual({ name: HOSTILE, content: expect.any(String) });
    await poll(() => text(page.locator('#picked'))).toContain('copied to the clipboard');
    expect(JSON.parse(await page.evaluate<string>('navigator.clipboard.readText()'))).toEqual(entry);
    // A mouse click on another box copies that one.
    const title = page
      .locator('figure.slide')
      .first()
      .locator('[data-shape-name="Title 1"] rect:not(.label-chip)');
    await title.click();
    await poll(() => text(page.locator('#picked .shape-name'))).toBe('Title 1');
    expect(dialogs).toEqual([]);
    await screenshot(page, 'inspector');
    // The slide size in units people know; the entry panel closes with Escape and with its button.
    expect(await text(page.locator('#drawings > p.muted'))).toMatch(/ cm \(.+ in\)/);
    await page.keyboard.press('Escape');
    await poll(() => page.locator('#picked').isHidden()).toBe(true);
    await title.click();
    await poll(() => page.locator('#picked').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Close (Escape)' }).click();
    await poll(() => page.locator('#picked').isHidden()).toBe(true);
  });

  it('generates a valid deck from the pre-filled playground, shows an error at its path, and walks a job to its link', async () => {
    await page.getByRole('link', { name: 'Fill it in the playground' }).click();
    const editor = page.locator('#json-data');
    await editor.waitFor();
    const prefilled = JSON.parse(await editor.inputValue()) as {
      presentation: { template: string; slides: unknown[] };
    };
    expect(prefilled.presentation.template).toBe('layouts.pptx');
    expect(prefilled.presentation.slides).toHaveLength(inspect(TEMPLATE).slides.length);
    // The pre-fill gives the template back and warns of nothing; text far too long for its box draws a warning.
    expect(generate({ payload: prefilled, files: new Map([['layouts.pptx', TEMPLATE]]) }).warnings).toEqual(
      [],
    );
    const withLongText = structuredClone(prefilled) as {
      presentation: { slides: { shapes?: { content: unknown }[] }[] };
    };
    withLongText.presentation.slides[1]!.shapes![0]!.content = 'word '.repeat(3000).trim();
    await editor.fill(JSON.stringify(withLongText, null, 2));

    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Generate' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('layouts-generated.pptx');
    const deck = new Uint8Array(readFileSync((await download.path())!));
    await expectValidPptx(deck, TEMPLATE);
    expect(dialogs).toEqual([]);
    // Every warning is listed with its JSON path: the ones the engine gives for the same payload.
    const { warnings } = generate({ payload: withLongText, files: new Map([['layouts.pptx', TEMPLATE]]) });
    expect(warnings.length).toBeGreaterThan(0);
    await poll(() => page.locator('#generation-warnings li').allTextContents()).toEqual(
      warnings.map((w) => `${w.path} ${w.message}`),
    );
    expect(await page.locator('#generation-unmatched').count()).toBe(0);

    // A misspelt shape name: the deck still comes (lenient), and a line first says what matched nothing.
    const misspelt = structuredClone(prefilled) as {
      presentation: { slides: { shapes?: { name: string }[] }[] };
    };
    const shape = misspelt.presentation.slides[1]!.shapes![0]!;
    shape.name = `${shape.name}x`;
    await editor.fill(JSON.stringify(misspelt, null, 2));
    const again = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Generate' }).click();
    await expectValidPptx(new Uint8Array(readFileSync((await (await again).path())!)), TEMPLATE);
    await poll(() => text(page.locator('#generation-unmatched'))).toContain(
      `Names in the payload that matched nothing: 1 matched nothing: shape "${shape.name}" (did you mean ` +
        `"${shape.name.slice(0, -1)}"?) at slides[1].shapes[0]`,
    );
    await screenshot(page, 'playground-unmatched');

    // An error: content of the wrong kind for a text shape; the path is marked in the editor.
    const broken = structuredClone(prefilled) as {
      presentation: { slides: { shapes?: { content: unknown }[] }[] };
    };
    broken.presentation.slides[1]!.shapes![0]!.content = [['a table', 'for a text shape']];
    await editor.fill(JSON.stringify(broken, null, 2));
    await page.getByRole('button', { name: 'Generate' }).click();
    await poll(() => text(page.locator('#error-body'))).toContain('"statusCode": 400');
    await poll(() => text(page.locator('.path-excerpt code'))).toBe(
      'presentation.slides[1].shapes[0].content',
    );
    await poll(() => text(page.locator('#error-mark'))).toContain('a table');
    await poll(() => editor.getAttribute('aria-invalid')).toBe('true');
    const selected = await editor.evaluate((node) => {
      const area = node as unknown as { value: string; selectionStart: number; selectionEnd: number };
      return area.value.slice(area.selectionStart, area.selectionEnd);
    });
    expect(JSON.parse(selected)).toEqual([['a table', 'for a text shape']]);
    await screenshot(page, 'playground-error');

    await editor.fill(JSON.stringify(prefilled, null, 2));
    await page.getByRole('button', { name: 'Submit job' }).click();
    await expect
      .poll(() => text(page.locator('#job-states li').last()), { timeout: 60_000, interval: 100 })
      .toMatch(/SUCCEEDED|FAILED/);
    const states = await page.locator('#job-states li').allTextContents();
    expect(states.at(-1)).toBe('SUCCEEDED');
    // The first is the state the submission answered with.
    expect(states[0]).toBe('QUEUED');
    // In walking order: nothing goes back.
    const order = ['QUEUED', 'PROCESSING', 'SUCCEEDED'];
    expect(states.map((s) => order.indexOf(s))).toEqual([...states.map((s) => order.indexOf(s))].sort());
    const jobDownload = page.waitForEvent('download');
    await page.locator('#outcome a.download').click();
    await expectValidPptx(new Uint8Array(readFileSync((await (await jobDownload).path())!)), TEMPLATE);
    await screenshot(page, 'playground');
  });

  it('shows usage after the generations, and the job in the job list', async () => {
    const slides = inspect(TEMPLATE).slides.length;
    await open('/console/usage');
    await poll(() => text(page.locator('label[for="slides-meter"]'))).toContain(`${slides * 3} of `);
    await poll(() => page.locator('.usage-chart rect.bar').count()).toBeGreaterThan(0);
    await screenshot(page, 'usage');
    await open('/console/jobs');
    await poll(() => page.locator('tbody tr').count()).toBe(1);
    await poll(() => text(page.locator('tbody tr .state'))).toBe('SUCCEEDED');
    await page.locator('tbody tr a.download').waitFor({ state: 'visible' });
    await screenshot(page, 'jobs');
    await open('/console/account');
    await page.getByText(/A security key exists/).waitFor({ state: 'visible' });
    await screenshot(page, 'account');
    await open('/console/templates');
    await screenshot(page, 'templates');
    // Every page at a phone's width (390 px), looked at in test-output/console/: each link of the navigation in
    // sight (none past the screen's edge, where a row that scrolled sideways hid the last pages), nothing
    // wider than the screen, and text no smaller than 10 px, the usage chart's labels included.
    await page.setViewportSize({ width: 390, height: 844 });
    for (const name of ['tokens', 'usage', 'jobs', 'templates', 'inspector', 'playground', 'account']) {
      await open(`/console/${name}`);
      if (name === 'usage') await page.locator('.usage-chart .axis-label').first().waitFor();
      const links = await page
        .locator('nav li')
        .evaluateAll((items) =>
          items.map((item) => item.getBoundingClientRect()).map((r) => [r.left, r.right]),
        );
      expect(links.length, `${name}: navigation links`).toBeGreaterThanOrEqual(8);
      for (const [left, right] of links) {
        expect(left, `${name}: a link starts off screen`).toBeGreaterThanOrEqual(0);
        expect(right, `${name}: a link ends off screen`).toBeLessThanOrEqual(390);
      }
      expect(await page.evaluate(PAGE_WIDTH), `${name}: page width`).toBe(390);
      const smallest = Number(await page.evaluate(SMALLEST_TEXT));
      expect(smallest, `${name}: smallest text, px`).toBeGreaterThanOrEqual(10);
      await screenshot(page, `${name}-phone`);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('refuses a request without the CSRF header, from the page itself', async () => {
    const answer = await page.evaluate(async () => {
      const response = await fetch('/console/api/tokens', { method: 'POST' });
      return { status: response.status, body: (await response.json()) as unknown };
    });
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ statusCode: 403, message: expect.any(String), detail: expect.any(String) });
    const listed = await page.evaluate(
      async () =>
        ((await (await fetch('/console/api/tokens')).json()) as { tokens: unknown[] }).tokens.length,
    );
    expect(listed).toBe(0);
  });

  it("keeps another account's session cookie away from this account's data", async () => {
    // Ann makes a token; Bob, signed up and confirmed in a browser of his own, cannot see or revoke it.
    const annToken = await page.evaluate(async () => {
      const session = (await (await fetch('/console/api/session')).json()) as { csrfToken: string };
      const made = await fetch('/console/api/tokens', {
        method: 'POST',
        headers: { 'x-csrf-token': session.csrfToken },
      });
      return (await made.json()) as { id: string; token: string };
    });
    const bobContext = await browser.newContext();
    const bob = await bobContext.newPage();
    const bobEmail = `bob-${Date.now()}@example.test`;
    await bob.goto(`${serve.base}/console/sign-up`);
    await bob.getByLabel('E-mail').fill(bobEmail);
    await bob.getByLabel('Password').fill(PASSWORD);
    await bob.getByRole('button', { name: 'Create account' }).click();
    const link = /\/console\/confirm\?token=([A-Za-z0-9_-]+)/.exec((await mail.next(bobEmail)).text);
    await bob.goto(`${serve.base}/console/confirm?token=${link![1]}`);
    await bob.locator('.message.success').waitFor({ state: 'visible' });
    await bob.goto(`${serve.base}/console/sign-in`);
    await bob.getByLabel('E-mail').fill(bobEmail);
    await bob.getByLabel('Password').fill(PASSWORD);
    await bob.getByRole('button', { name: 'Sign in' }).click();
    await bob.waitForURL('**/console/tokens');
    await bob.getByText('No live tokens.').waitFor({ state: 'visible' });
    const bobTries = await bob.evaluate(async (id) => {
      const session = (await (await fetch('/console/api/session')).json()) as { csrfToken: string };
      const revoke = await fetch(`/console/api/tokens/${id}`, {
        method: 'DELETE',
        headers: { 'x-csrf-token': session.csrfToken },
      });
      const jobs = (await (await fetch('/console/api/jobs')).json()) as { jobs: unknown[] };
      return { revoke: revoke.status, jobs: jobs.jobs.length };
    }, annToken.id);
    expect(bobTries).toEqual({ revoke: 404, jobs: 0 });
    const stillWorks = await fetch(`${serve.base}/v1.0/usage`, {
      headers: { authorization: `Bearer ${annToken.token}` },
    });
    expect(stillWorks.status).toBe(200);

    // Bob's cookie carried by a request with Ann's CSRF token: the token belongs to another session.
    const annCsrf = await page.evaluate(
      async () => ((await (await fetch('/console/api/session')).json()) as { csrfToken: string }).csrfToken,
    );
    const crossed = await bob.evaluate(
      async (csrf) =>
        (await fetch('/console/api/tokens', { method: 'POST', headers: { 'x-csrf-token': csrf } })).status,
      annCsrf,
    );
    expect(crossed).toBe(403);
    await bobContext.close();
  });

  it('slows wrong passwords down: after several, even the right one waits (429, said on the page)', async () => {
    const visitor = await browser.newContext();
    const tab = await visitor.newPage();
    await tab.goto(`${serve.base}/console/sign-in`);
    const attempt = async (password: string): Promise<string> => {
      await tab.getByLabel('E-mail').fill(ann.email);
      await tab.getByLabel('Password').fill(password);
      const answered = tab.waitForResponse((r) => r.url().endsWith('/console/api/sign-in'), {
        timeout: 60_000,
      });
      await tab.getByRole('button', { name: 'Sign in' }).click();
      await answered;
      // The page writes the answer once the response is read; until then it says "Working…".
      await poll(() => text(tab.locator('.status .message'))).not.toMatch(/^Working/);
      return text(tab.locator('.status .message'));
    };
    const answers: string[] = [];
    for (let i = 0; i < 6; i++) answers.push(await attempt(`wrong password ${i}`));
    expect(answers.every((a) => !a.startsWith('Too many'))).toBe(true);
    const locked = await attempt(PASSWORD);
    expect(locked).toMatch(/^Too many attempts/);
    await screenshot(tab, 'sign-in-locked');
    await visitor.close();
  });

  it('says why sign-up is closed on a server without a mail server', async () => {
    const closedDir = mkdtempSync(join(tmpdir(), 'deckforge-console-closed-'));
    const closed = await startServe(closedDir, { DECKFORGE_SIGNUP: 'open', DECKFORGE_LOG_LEVEL: 'warn' });
    try {
      const visitor = await browser.newContext();
      const tab = await visitor.newPage();
      await tab.goto(`${closed.base}/console/sign-up`);
      const notice = tab.locator('main .message');
      await notice.waitFor();
      expect(await notice.textContent()).toBe('Sign-up is closed: no mail server configured.');
      expect(await tab.locator('form').count()).toBe(0);
      await screenshot(tab, 'sign-up-closed');
      // No way into the closed page: neither the navigation nor the sign-in page offers sign-up.
      await tab.goto(`${closed.base}/console/sign-in`);
      await tab.locator('form').waitFor();
      expect(await tab.locator('a[href="/console/sign-up"]').count()).toBe(0);
      expect(await tab.locator('nav a[href="/docs"]').count()).toBe(1);
      // The reset page says at once that no link can be sent, before anyone types an address.
      await tab.goto(`${closed.base}/console/reset`);
      await tab.locator('main .message').waitFor();
      expect(await tab.locator('main .message').textContent()).toBe(
        'This server has no mail server, so it cannot send reset links.',
      );
      expect(await tab.locator('form').count()).toBe(0);
      await screenshot(tab, 'reset-without-mail');
      await visitor.close();
    } finally {
      await closed.kill();
      rmSync(closedDir, { recursive: true, force: true });
    }
  });

  itCorpus(
    'draws a 45-slide corpus deck, and prints the time from the upload to the first drawing',
    async () => {
      const file = corpusFile('poi/stress022.pptx');
      const bytes = readCorpus(file);
      const inspected = inspect(bytes);
      expect(inspected.slides).toHaveLength(45);
      // Its own account and session: CI runs the corpus tests alone, without the sign-up tests above.
      const viewer = { email: `viewer-${Date.now()}@example.test`, password: PASSWORD };
      execFileSync(
        process.execPath,
        [CLI_PATH, 'accounts', 'create', '--email', viewer.email, '--password', viewer.password],
        { env: { ...process.env, DECKFORGE_DATA_DIR: dataDir }, stdio: 'pipe' },
      );
      const visitor = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await visitor.newPage();
      await page.goto(`${serve.base}/console/sign-in`);
      await page.getByLabel('E-mail').fill(viewer.email);
      await page.getByLabel('Password').fill(viewer.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL('**/console/tokens');
      await page.goto(`${serve.base}/console/inspector`);
      await page.locator('main h1').waitFor();
      await page.locator('#template-file').setInputFiles({
        name: 'stress022.pptx',
        mimeType: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
        buffer: Buffer.from(bytes),
      });
      await page.getByRole('button', { name: 'Inspect' }).click();
      await poll(() => page.locator('figure.slide').count()).toBe(
        inspected.slides.length + inspected.layouts.length,
      );
      const firstSlide = page.locator('figure.slide').first();
      for (const s of inspected.slides[0]!.shapes.filter((shape) => shape.kind !== 'group'))
        await poll(() =>
          firstSlide.locator(`g.shape[data-shape-name="${s.name.replace(/"/g, '\\"')}"]`).count(),
        ).toBeGreaterThan(0);
      const ms = await page.evaluate<number>(
        "performance.measure('inspect-first', 'inspect-upload-done', 'inspect-first-drawing').duration",
      );
      console.log(
        `inspector: first drawing of ${file.file} (45 slides) ${Math.round(ms)} ms after the upload finished`,
      );
      await screenshot(page, 'inspector-corpus');
      await visitor.close();
    },
  );
});
