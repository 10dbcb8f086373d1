/**
 * The pool must not change what LibreOffice draws (issue 26): decks rendered by the warm pool and by a cold
 * `soffice --headless --convert-to pdf` agree on their page count, each page's text (pdftotext) and each
 * page's pixels (pdftoppm at the same width, a small tolerance for anti-aliasing). Two decks the project builds
 * (a table on the sample template; the layouts template with its pictures) always, three corpus decks (charts,
 * pictures, tables) when the corpus is there. One pool for the file.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LibreOfficeRendererPool } from '../../src/rendering/libreoffice-renderer-pool.js';
import { describeCorpus, readCorpus } from '../support/corpus.js';
import { layoutsTemplate } from '../support/layouts-template.js';
import { describeWithLibreOffice } from '../support/libreoffice.js';
import { renderToPdf } from '../support/render.js';
import { REPORT_TEMPLATE } from '../support/report-template.js';

const WIDTH = 480;
/** A channel differing by more than this is a changed pixel (anti-aliasing moves edges by a few levels). */
const CHANNEL_TOLERANCE = 24;
/** Changed pixels a page may have: a moved glyph or a different picture would change far more. */
const CHANGED_SHARE = 0.002;

const root = mkdtempSync(join(tmpdir(), 'deckforge-renderer-fidelity-'));
let pool: LibreOfficeRendererPool;
let folders = 0;

function folder(): string {
  const dir = join(root, `dir-${++folders}`);
  mkdirSync(dir);
  return dir;
}

/** Each page's text, as pdftotext lays it out. */
function pageTexts(pdf: string): string[] {
  const pages = execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', pdf, '-']).toString().split('\f');
  pages.pop(); // pdftotext ends every page with a form feed.
  return pages;
}

async function pixels(png: string): Promise<{ data: Buffer; width: number; height: number }> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Renders `bytes` both ways and compares; returns the pool's page texts for checks of the deck's own. */
async function expectSameAsCold(name: string, bytes: Uint8Array): Promise<string[]> {
  const deck = join(folder(), `${name}.pptx`);
  writeFileSync(deck, bytes);
  const warm = await pool.render({
    accountId: 'fidelity',
    deckFile: deck,
    outputDir: folder(),
    pdf: true,
    pngWidth: WIDTH,
  });
  const coldDir = folder();
  const coldPdf = join(coldDir, 'cold.pdf');
  writeFileSync(coldPdf, await renderToPdf(bytes));
  execFileSync('pdftoppm', [
    '-png',
    '-scale-to-x',
    String(WIDTH),
    '-scale-to-y',
    '-1',
    coldPdf,
    join(coldDir, 'page'),
  ]);
  const coldPngs = readdirSync(coldDir)
    .filter((n) => n.endsWith('.png'))
    .sort((a, b) => Number(/(\d+)\.png$/.exec(a)?.[1]) - Number(/(\d+)\.png$/.exec(b)?.[1]))
    .map((n) => join(coldDir, n));

  const coldPages = Number(/^Pages:\s+(\d+)/m.exec(execFileSync('pdfinfo', [coldPdf]).toString())?.[1]);
  expect(warm.pageCount, `${name}: pages`).toBe(coldPages);
  const warmText = pageTexts(warm.pdfFile as string);
  expect(warmText, `${name}: text of each page`).toEqual(pageTexts(coldPdf));
  expect(warm.pngFiles).toHaveLength(coldPngs.length);
  for (const [i, png] of warm.pngFiles.entries()) {
    const [a, b] = await Promise.all([pixels(png), pixels(coldPngs[i] as string)]);
    expect({ width: a.width, height: a.height }, `${name} page ${i + 1}: size`).toEqual({
      width: b.width,
      height: b.height,
    });
    let changed = 0;
    let inked = 0;
    for (let p = 0; p < a.data.length; p += 3) {
      const far = [0, 1, 2].some(
        (c) => Math.abs((a.data[p + c] as number) - (b.data[p + c] as number)) > CHANNEL_TOLERANCE,
      );
      if (far) changed += 1;
      if ((a.data[p] as number) < 200 || (a.data[p + 1] as number) < 200 || (a.data[p + 2] as number) < 200)
        inked += 1;
    }
    const total = a.width * a.height;
    expect(changed / total, `${name} page ${i + 1}: share of changed pixels`).toBeLessThanOrEqual(
      CHANGED_SHARE,
    );
    // A blank page would agree with a blank page: each page must show something.
    expect(inked, `${name} page ${i + 1}: drawn pixels`).toBeGreaterThan(0);
  }
  return warmText;
}

describeWithLibreOffice('warm pool and cold soffice draw the same', () => {
  beforeAll(async () => {
    pool = new LibreOfficeRendererPool({
      size: 1,
      timeoutMs: 120_000,
      recycleAfter: 200,
      memoryCeilingMb: 4096,
      workDir: join(root, 'pool'),
      searchPath: process.env.PATH ?? '',
      python: null,
    });
    await pool.detected();
  });
  afterAll(async () => {
    await pool?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('a table on the sample template', async () => {
    const text = await expectSameAsCold('report', REPORT_TEMPLATE);
    for (const word of ['Region', 'Overseas', 'Q4', 'Quarterly figures']) expect(text[0]).toContain(word);
  });

  it('the layouts template: ten slides, placeholders, a group and two pictures', async () => {
    const text = await expectSameAsCold('layouts', layoutsTemplate());
    expect(text).toHaveLength(10);
  });

  describeCorpus('corpus decks', () => {
    for (const file of [
      'markitdown/test.pptx',
      'ShapeCrawler/025_chart.pptx',
      'pptx-automizer/ChartScatter.pptx',
    ]) {
      it(file, async () => {
        await expectSameAsCold(file.replace(/\W+/g, '-'), readCorpus(file));
      });
    }
  });
});
