/**
 * The inspector draws each visible slide's real picture under its boxes when the server has LibreOffice: one
 * Chromium, one server (one renderer), a small three-slide deck whose middle slide is hidden. What a user sees:
 * nothing drawn or charged before they ask; then the picture, at the slide's aspect ratio, filling the drawing's
 * box, with real content (not a blank page); the hidden slide and the layouts have boxes alone; the note says
 * what was drawn; the pictures are charged as `POST /v1.0/render` charges them (the visible slides). The server without a renderer (boxes and a
 * note why) is the inspector test of console-browser.test.ts.
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { inspect } from '../../src/engine/index.js';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import { layoutsTemplate } from '../support/decks/layouts-template.js';
import { previewDeck } from '../support/decks/preview-decks.js';
import { ensureBuilt } from '../support/servers/build-once.js';
import { bearer, startServer, type RunningServer } from '../support/servers/http-harness.js';
import { describeWithLibreOffice } from '../support/servers/libreoffice.js';
import { describeBrowser, launchChromium, screenshot, SCREENSHOT_DIR } from './browser-harness.js';

const DECK = previewDeck(3, { hidden: [1], paragraphs: 2 });

/** The DOM as far as `inkOf` uses it (the tests are compiled without the DOM's types; this runs in the page). */
interface PageImage {
  naturalWidth: number;
  naturalHeight: number;
  decode(): Promise<void>;
  ownerDocument: {
    createElement(tag: 'canvas'): {
      width: number;
      height: number;
      getContext(kind: '2d'): {
        drawImage(image: PageImage, x: number, y: number): void;
        getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray };
      };
    };
  };
}

/** In the page: an image's natural size, and the share of its pixels that are not (near) white. */
async function inkOf(
  node: unknown,
): Promise<{ naturalWidth: number; naturalHeight: number; inkedShare: number }> {
  const img = node as PageImage;
  await img.decode();
  const canvas = img.ownerDocument.createElement('canvas');
  canvas.width = img.naturalWidth;
  canvas.height = img.naturalHeight;
  const context = canvas.getContext('2d');
  context.drawImage(img, 0, 0);
  const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
  let inked = 0;
  for (let i = 0; i < data.length; i += 4)
    if (data[i]! < 200 || data[i + 1]! < 200 || data[i + 2]! < 200) inked++;
  return {
    naturalWidth: img.naturalWidth,
    naturalHeight: img.naturalHeight,
    inkedShare: inked / (data.length / 4),
  };
}

const DESKTOP = { width: 1280, height: 900 };
describeWithLibreOffice('the inspector with a renderer', () => {
  describeBrowser('slide pictures under the boxes, in Chromium', () => {
    let server: RunningServer;
    let browser: Browser;
    let page: Page;
    let token: string;

    beforeAll(async () => {
      await ensureBuilt(); // the console's browser code, served from dist/console
      server = await startServer({ overrides: { rendering: { renderers: 1 } } });
      const account = await server.signUp();
      token = account.token;
      browser = await launchChromium();
      page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
      await page.goto(`${server.base}/console/sign-in`);
      await page.getByLabel('E-mail').fill(account.email);
      await page.getByLabel('Password').fill(account.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL('**/console/tokens');
    }, 180_000);

    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    it('shows each visible slide as LibreOffice draws it, under its boxes, charged as a render', async () => {
      await expectValidPptx(DECK, layoutsTemplate());
      const inspected = inspect(DECK);
      const aspect = inspected.slideSize!.cx / inspected.slideSize!.cy;
      await page.goto(`${server.base}/console/inspector`);
      await page.locator('#template-file').setInputFiles({
        name: 'three-slides.pptx',
        mimeType: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
        buffer: Buffer.from(DECK),
      });
      await page.getByRole('button', { name: 'Inspect' }).click();
      const figures = page.locator('figure.slide');
      await expect
        .poll(() => figures.count(), { timeout: 20_000 })
        .toBe(inspected.slides.length + inspected.layouts.length);
      // Nothing is drawn, or charged, until the user asks.
      await expect
        .poll(() => page.locator('#picture-note').textContent(), { timeout: 20_000 })
        .toMatch(
          /^Boxes alone\. Draw the slides under the boxes \(2 slides of the allowance, as a render\)$/,
        );
      expect(await page.locator('img.slide-picture').count()).toBe(0);
      const before = await fetch(`${server.base}/v1.0/usage`, { headers: bearer(token) });
      expect(((await before.json()) as { result: { usedSlideCount: number } }).result.usedSlideCount).toBe(0);
      await screenshot(page, 'inspector-before-pictures');
      await page.locator('#draw-pictures').click();
      // LibreOffice takes seconds per deck here.
      await expect
        .poll(() => page.locator('#picture-note').textContent(), { timeout: 120_000, interval: 250 })
        .toMatch(/^Under the boxes: 2 slide pictures drawn by LibreOffice/);
      await screenshot(page, 'inspector-pictures');
      // The first slide alone too, at both widths: its labels over the picture are what to look at.
      await figures.first().screenshot({ path: join(SCREENSHOT_DIR, 'inspector-pictures-slide.png') });
      await page.setViewportSize({ width: 390, height: 844 });
      await screenshot(page, 'inspector-pictures-phone');
      await figures.first().screenshot({ path: join(SCREENSHOT_DIR, 'inspector-pictures-slide-phone.png') });
      await page.setViewportSize(DESKTOP);

      // Slides 0 and 2 have their picture; the hidden slide 1 and the layouts have boxes alone.
      const pictureCounts = await figures.evaluateAll((all) =>
        all.map((figure) => figure.querySelectorAll('img.slide-picture').length),
      );
      expect(pictureCounts).toEqual([1, 0, 1, ...inspected.layouts.map(() => 0)]);

      for (const at of [0, 2]) {
        const figure = figures.nth(at);
        const picture = await figure.locator('img.slide-picture').evaluate(inkOf);
        expect(picture.naturalWidth).toBe(960);
        expect(picture.naturalWidth / picture.naturalHeight).toBeCloseTo(aspect, 2);
        expect(picture.inkedShare, `slide ${at}: ink`).toBeGreaterThan(0.005);
        expect(picture.inkedShare, `slide ${at}: ink`).toBeLessThan(0.9);
        // Drawn at the drawing's own size and place: the boxes lie on the slide they stand for.
        const shown = (await figure.locator('img.slide-picture').boundingBox())!;
        const drawing = (await figure.locator('svg.slide-drawing').boundingBox())!;
        for (const key of ['x', 'y', 'width', 'height'] as const)
          expect(Math.abs(shown[key] - drawing[key]), key).toBeLessThan(1);
        expect(shown.width / shown.height).toBeCloseTo(aspect, 2);
        // Each box's label reads over the picture: its one line (name and kind) lies on an opaque tab of its
        // own, which holds the whole line, on the box's top edge rather than on the slide's text inside it.
        const labels = await figure.locator('g.shape').evaluateAll((groups) =>
          groups.map((group) => {
            const shown = (node: typeof group) => node.getBoundingClientRect().width > 0;
            const style = (node: typeof group) => group.ownerDocument.defaultView!.getComputedStyle(node);
            const chip = group.querySelector('rect.label-chip')!;
            const box = group.querySelector('rect:not(.label-chip)')!.getBoundingClientRect();
            const lines = [...group.querySelectorAll('text')].filter(shown);
            const [c, l] = [chip.getBoundingClientRect(), lines[0]!.getBoundingClientRect()];
            return {
              lines: lines.length,
              chipShown: shown(chip) && Number(style(chip).fillOpacity) > 0.9,
              holds:
                c.left <= l.left + 0.5 &&
                c.right >= l.right - 0.5 &&
                c.top <= l.top + 0.5 &&
                c.bottom >= l.bottom - 0.5,
              // Above the box; inside its top edge only when the slide has no room above it.
              outside:
                box.top - group.ownerSVGElement!.getBoundingClientRect().top >= c.height - 0.5
                  ? c.bottom <= box.top + 0.5
                  : Math.abs(c.top - box.top) < 0.5,
            };
          }),
        );
        for (const label of labels)
          expect(label, `slide ${at}`).toEqual({ lines: 1, chipShown: true, holds: true, outside: true });
        // The boxes are still there, on top, and still copy their entry.
        await figure.locator('[data-shape-name="Title 1"] rect:not(.label-chip)').click();
        await expect.poll(() => page.locator('#picked .shape-name').textContent()).toBe('Title 1');
      }

      // The two visible slides are charged, as POST /v1.0/render charges them.
      const usage = await fetch(`${server.base}/v1.0/usage`, { headers: bearer(token) });
      const { result } = (await usage.json()) as { result: { usedSlideCount: number } };
      expect(result.usedSlideCount).toBe(2);

      // Coming back to the inspector shows the kept pictures without drawing (or charging) them again.
      await page.getByRole('link', { name: 'Fill it in the playground' }).click();
      await page.locator('#json-data').waitFor();
      await page.getByRole('link', { name: 'Template inspector' }).click();
      await expect.poll(() => page.locator('img.slide-picture').count()).toBe(2);
      const again = await fetch(`${server.base}/v1.0/usage`, { headers: bearer(token) });
      const after = (await again.json()) as { result: { usedSlideCount: number } };
      expect(after.result.usedSlideCount).toBe(2);
    }, 180_000);
  });
});
