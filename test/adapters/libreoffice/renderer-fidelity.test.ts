/**
 * The pool must not change what LibreOffice draws: decks rendered by the warm pool and by a cold
 * `soffice --headless --convert-to pdf` agree on their page count, each page's text (pdftotext) and each
 * page's pixels (pdftoppm at the same width, a small tolerance for anti-aliasing). Always: decks the project
 * builds and what the engine makes of them (a filled chart, a grown table, a placed picture). With the corpus: a
 * sample of the decks LibreOffice renders, spread over the manifest (what is checked is the pool, the same for
 * every deck; the agent loop, test/mcp/agent-loop.test.ts, previews every deck it fills through the pool), converted cold by one soffice run
 * for them all (its start-up is most of a cold conversion's cost), pixels compared on the first pages of each to
 * keep the sweep lean. One pool for the file.
 * (Decks cut to their first slides would be cheaper, but LibreOffice 7.4 aborts on some: poi/stress022.pptx
 * converts whole and aborts cut to any number of its slides.)
 * The cold soffice converts what the pool's LibreOffice gets: the deck's render-safe copy (docs/security.md,
 * "Rendering untrusted decks"), in which linked media, OLE objects and pictures draw as their fallbacks.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LibreOfficeRendererPool } from '../../../src/adapters/libreoffice/libreoffice-renderer-pool.js';
import { DEFAULT_IMAGE_LIMITS, generate, renderSafeCopy } from '../../../src/engine/index.js';
import { ConversionProcess } from '../../../src/image-preparation/conversion-process.js';
import { chartDeck } from '../../support/decks/chart-templates.js';
import { corpusFiles, describeCorpus, readCorpus, spread } from '../../support/corpus/corpus.js';
import { generateWithImages } from '../../support/decks/generate-with-images.js';
import { layoutsTemplate } from '../../support/decks/layouts-template.js';
import { picturesDeck } from '../../support/decks/picture-decks.js';
import { png, RED } from '../../support/decks/test-images.js';
import { describeWithLibreOffice } from '../../support/servers/libreoffice.js';
import { renderToPdf } from '../../support/readers/render.js';
import { REPORT_TEMPLATE } from '../../support/decks/report-template.js';

const WIDTH = 480;
/** Corpus decks compared: enough kinds of deck (sizes, masters, charts, pictures, scripts) to show the pool draws
 * what a cold LibreOffice draws, at a quarter of the cost of every deck. */
const COMPARED_DECKS = 30;
/** A corpus deck's pages compared pixel by pixel (the page count and every page's text are compared whole). */
const COMPARED_PAGES = 2;
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

/** Whether a slide of the deck shows the date of the day it is drawn (a `datetime` field, ECMA-376 21.1.2.2.4). */
function showsTheDate(deck: Uint8Array): boolean {
  const slides = unzipSync(deck, { filter: (file) => /^ppt\/slides\/slide\d+\.xml$/.test(file.name) });
  return Object.values(slides).some((xml) => /<a:fld\b[^>]*\btype="datetime/.test(strFromU8(xml)));
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

/** The first `count` pages of `pdf` as PNGs `WIDTH` wide, in page order, as the pool draws them. */
function drawFirstPages(pdf: string, count: number, dir: string): string[] {
  const prefix = join(dir, 'page');
  execFileSync('pdftoppm', [
    '-png',
    '-l',
    String(Math.min(count, 100_000)),
    '-scale-to-x',
    String(WIDTH),
    '-scale-to-y',
    '-1',
    pdf,
    prefix,
  ]);
  return readdirSync(dir)
    .filter((n) => n.startsWith('page') && n.endsWith('.png'))
    .sort((a, b) => Number(/(\d+)\.png$/.exec(a)?.[1]) - Number(/(\d+)\.png$/.exec(b)?.[1]))
    .map((n) => join(dir, n));
}

/** What the pool hands LibreOffice: the render-safe copy of the deck. */
function asLibreOfficeSeesIt(bytes: Uint8Array): Uint8Array {
  return renderSafeCopy(bytes, { maxPixels: DEFAULT_IMAGE_LIMITS.maxPixels }).bytes;
}

/** Renders `bytes` both ways and compares; returns the pool's page texts for checks of the deck's own. */
async function expectSameAsCold(
  name: string,
  bytes: Uint8Array,
  cold: { pdf?: string; comparedPages?: number; blankPagesAllowed?: boolean } = {},
): Promise<string[]> {
  const deck = join(folder(), `${name}.pptx`);
  writeFileSync(deck, bytes);
  const compared = cold.comparedPages ?? Number.MAX_SAFE_INTEGER;
  const warmDir = folder();
  // With every page compared, the pool draws the pages itself; a sweep that compares the first pages draws
  // only those, from the pool's PDF, as it does the cold one's (a 46-page deck's pages cost more than its PDF).
  const warm = await pool.render({
    accountId: 'fidelity',
    deckFile: deck,
    outputDir: warmDir,
    pdf: true,
    ...(cold.comparedPages === undefined ? { pngWidth: WIDTH } : {}),
  });
  const coldDir = folder();
  const coldPdf = cold.pdf ?? join(coldDir, 'cold.pdf');
  if (!cold.pdf) writeFileSync(coldPdf, await renderToPdf(asLibreOfficeSeesIt(bytes)));
  const coldPngs = drawFirstPages(coldPdf, compared, coldDir);
  const warmPngs =
    cold.comparedPages === undefined
      ? warm.pngFiles
      : drawFirstPages(warm.pdfFile as string, compared, warmDir);

  const coldPages = Number(/^Pages:\s+(\d+)/m.exec(execFileSync('pdfinfo', [coldPdf]).toString())?.[1]);
  expect(warm.pageCount, `${name}: pages`).toBe(coldPages);
  const warmText = pageTexts(warm.pdfFile as string);
  expect(warmText, `${name}: text of each page`).toEqual(pageTexts(coldPdf));
  expect(warmPngs.length).toBeGreaterThanOrEqual(coldPngs.length);
  expect(coldPngs).toHaveLength(Math.min(compared, coldPages));
  for (const [i, png] of warmPngs.slice(0, coldPngs.length).entries()) {
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
    // A blank page would agree with a blank page: each page of our decks must show something (some corpus decks
    // are blank by design: no slides, empty placeholders, a picture linked to a file that is not there).
    if (!cold.blankPagesAllowed) expect(inked, `${name} page ${i + 1}: drawn pixels`).toBeGreaterThan(0);
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

  it("the engine's output: a chart filled with other series and categories", async () => {
    const filled = generate({
      files: new Map([['chart.pptx', chartDeck()]]),
      payload: {
        presentation: {
          template: 'chart.pptx',
          slides: [
            {
              slide_index: 0,
              shapes: [
                {
                  name: 'Chart 5',
                  data: [
                    ['Alpha', 'Beta'],
                    ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'],
                    [3, 9],
                    [5, 7],
                    [8, 4],
                    [2, 6],
                    [7, 7],
                    [9, 1],
                  ],
                },
              ],
            },
          ],
        },
      },
    });
    await expectSameAsCold('filled-chart', filled.bytes);
  });

  it("the engine's output: the sample template's table grown to eight rows", async () => {
    const rows = ['North', 'South', 'East', 'West', 'Overseas', 'Online', 'Retail'].map((region, i) => [
      region,
      100 * i,
      110 * i,
      120 * i,
      130 * i,
    ]);
    const filled = generate({
      files: new Map([['report.pptx', REPORT_TEMPLATE]]),
      payload: {
        presentation: {
          template: 'report.pptx',
          slides: [
            {
              slide_index: 0,
              shapes: [{ name: 'Table 1', content: [['Region', 'Q1', 'Q2', 'Q3', 'Q4'], ...rows] }],
            },
          ],
        },
      },
    });
    const text = await expectSameAsCold('grown-table', filled.bytes);
    for (const word of ['Overseas', 'Online', 'Retail', '780']) expect(text[0]).toContain(word);
  });

  it("the engine's output: a picture placed in the template's picture frame", async () => {
    const converter = new ConversionProcess({ timeoutMs: 60_000, memoryMb: 2048 });
    try {
      const files = new Map<string, Uint8Array>([
        ['pictures.pptx', picturesDeck()],
        ['red.png', await png(300, 200, RED)],
      ]);
      const payload = {
        presentation: {
          template: 'pictures.pptx',
          slides: [{ slide_index: 0, shapes: [{ name: 'imagePNG', content: 'red.png', fit: 'cover' }] }],
        },
      };
      const placed = await generateWithImages(payload, files, { converter });
      await expectSameAsCold('placed-picture', placed.bytes);
    } finally {
      converter.close();
    }
  });

  describeCorpus('corpus decks LibreOffice renders, spread over the corpus', () => {
    // A deck without slides gets no render: the service refuses it, and the pool refuses a PDF whose pages are
    // not the deck's visible slides (LibreOffice draws one blank page for none).
    // A deck whose slides show the date is left out: its two renders may fall on two days (the tests run on a
    // clock that passes midnight: docs/development.md, "CI").
    const renderable = corpusFiles().filter((d) => d.libreofficePages > 0 && !d.strict && d.slides > 0);
    const decks = spread(
      renderable.filter((d) => !showsTheDate(readCorpus(d))),
      COMPARED_DECKS,
    );
    const coldDir = join(root, 'cold-corpus');
    const nameOf = (file: string): string => file.replace(/\W+/g, '-');
    let coldRun = '';

    beforeAll(() => {
      const inputs = join(root, 'corpus-inputs');
      mkdirSync(inputs, { recursive: true });
      mkdirSync(coldDir, { recursive: true });
      for (const d of decks) {
        writeFileSync(join(inputs, `${nameOf(d.file)}.pptx`), asLibreOfficeSeesIt(readCorpus(d)));
      }
      // One cold LibreOffice for the lot, with a profile of its own, as `--convert-to` runs it. How it ended is
      // kept for the decks' own tests, each of which needs its PDF: a crash midway leaves the later decks
      // without one, and their tests then say how soffice ended rather than the hook failing them all at once.
      const run = spawnSync(
        'soffice',
        [
          `-env:UserInstallation=file://${join(root, 'cold-profile')}`,
          '--headless',
          '--norestore',
          '--convert-to',
          'pdf',
          '--outdir',
          coldDir,
          ...decks.map((d) => join(inputs, `${nameOf(d.file)}.pptx`)),
        ],
        { stdio: ['ignore', 'ignore', 'pipe'], timeout: 900_000, maxBuffer: 64 * 1024 * 1024 },
      );
      coldRun = `soffice ended with ${run.signal ?? `exit code ${run.status}`}: ${String(run.stderr).slice(-400)}`;
    }, 900_000);

    it('lists the decks it compares', () => {
      expect(renderable.length).toBeGreaterThan(80);
      expect(decks).toHaveLength(COMPARED_DECKS);
    });

    for (const d of decks) {
      it(
        d.file,
        async () => {
          const pdf = join(coldDir, `${nameOf(d.file)}.pdf`);
          expect(existsSync(pdf), `cold soffice made no PDF of ${d.file} (${coldRun})`).toBe(true);
          await expectSameAsCold(nameOf(d.file), readCorpus(d), {
            pdf,
            comparedPages: COMPARED_PAGES,
            blankPagesAllowed: true,
          });
        },
        240_000,
      );
    }
  });
});
