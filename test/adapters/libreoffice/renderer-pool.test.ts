/**
 * The LibreOffice renderer pool with a real LibreOffice: what a user checks in the PDF and the PNGs it makes,
 * that accounts share it fairly, that a withdrawn request leaves the queue, and that close() leaves no process.
 * One pool of two renderers for the whole file. Without LibreOffice, the suite is reported skipped; the
 * refusal when soffice is missing runs everywhere.
 */
import { execFileSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { inspect } from '../../../src/engine/index.js';
import {
  LibreOfficeRendererPool,
  type RendererPoolOptions,
} from '../../../src/adapters/libreoffice/libreoffice-renderer-pool.js';
import { findExecutable } from '../../../src/adapters/libreoffice/render-tools.js';
import {
  RenderCancelledError,
  RenderFailedError,
  RendererUnavailableError,
  type RenderResult,
} from '../../../src/service/ports/renderer.js';
import { expectValidPptx } from '../../support/checks/expect-valid-pptx.js';
import { layoutsTemplate } from '../../support/decks/layouts-template.js';
import { describeWithLibreOffice, running } from '../../support/servers/libreoffice.js';
import { previewDeck, slideWord } from '../../support/decks/preview-decks.js';

const root = mkdtempSync(join(tmpdir(), 'deckforge-renderer-pool-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let folders = 0;
/** A fresh, empty output folder (the port's contract). */
function outputDir(): string {
  const dir = join(root, `out-${++folders}`);
  mkdirSync(dir);
  return dir;
}

function deckFile(name: string, bytes: Uint8Array): string {
  const path = join(root, name);
  writeFileSync(path, bytes);
  return path;
}

function poolOptions(overrides: Partial<RendererPoolOptions> = {}): RendererPoolOptions {
  return {
    size: 2,
    timeoutMs: 60_000,
    recycleAfter: 200,
    memoryCeilingMb: 4096,
    workDir: join(root, `pool-${++folders}`),
    searchPath: process.env.PATH ?? '',
    python: null,
    ...overrides,
  };
}

/** Whether a process runs (a zombie does not). */
const commandOf = (pid: number): string => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
};

describeWithLibreOffice('LibreOffice renderer pool', () => {
  let pool: LibreOfficeRendererPool;
  // Four slides, the third hidden: PowerPoint's export leaves it out, and so must ours.
  const deckBytes = previewDeck(4, { hidden: [2] });
  const small = previewDeck(2);
  const oneSlide = previewDeck(1);
  let deck: string;
  let smallDeck: string;
  let oneSlideDeck: string;

  beforeAll(async () => {
    await expectValidPptx(deckBytes, layoutsTemplate());
    await expectValidPptx(small, layoutsTemplate());
    await expectValidPptx(oneSlide, layoutsTemplate());
    deck = deckFile('hidden-third.pptx', deckBytes);
    smallDeck = deckFile('small.pptx', small);
    oneSlideDeck = deckFile('one-slide.pptx', oneSlide);
    pool = new LibreOfficeRendererPool(poolOptions());
    await pool.detected();
  });
  afterAll(async () => {
    await pool?.close();
  });

  it('writes a PDF of the visible slides with their text, and PNGs of the asked width in the slide aspect ratio', async () => {
    expect(pool.status()).toEqual({
      available: true,
      isolated: true,
      isolationPolicy: 'required',
      size: 2,
      busy: 0,
      waiting: 0,
    });
    const dir = outputDir();
    const result = await pool.render({
      accountId: 'a',
      deckFile: deck,
      outputDir: dir,
      pdf: true,
      pngWidth: 640,
    });

    expect(result.pdfFile).toBe(join(dir, 'deck.pdf'));
    expect(result.pageCount).toBe(3);
    const info = execFileSync('pdfinfo', [join(dir, 'deck.pdf')]).toString();
    expect(info).toMatch(/^Pages:\s+3$/m);
    const pages = execFileSync('pdftotext', ['-layout', join(dir, 'deck.pdf'), '-'])
      .toString()
      .split('\f');
    expect(pages[0]).toContain(slideWord(0));
    expect(pages[1]).toContain(slideWord(1));
    expect(pages[2]).toContain(slideWord(3)); // The hidden third slide is not a page.
    expect(pages.join('')).not.toContain(slideWord(2));
    expect(pages[0]).toContain('Paragraph 1 of the body');

    expect(result.pngFiles).toEqual([1, 2, 3].map((n) => join(dir, `slide-${n}.png`)));
    const size = inspect(deckBytes).slideSize as { cx: number; cy: number };
    for (const png of result.pngFiles) {
      const meta = await sharp(png).metadata();
      expect(meta.format).toBe('png');
      expect(meta.width).toBe(640);
      expect(Math.abs((meta.height as number) - (640 * size.cy) / size.cx)).toBeLessThanOrEqual(1);
    }
    // Nothing else is left in the folder, and the deck is untouched (no lock file beside it either).
    expect(readdirSync(dir).sort()).toEqual(['deck.pdf', 'slide-1.png', 'slide-2.png', 'slide-3.png']);
    expect(new Uint8Array(readFileSync(deck))).toEqual(deckBytes);
    expect(readdirSync(root).filter((n) => n.startsWith('.~lock'))).toEqual([]);
  });

  it('reports the fonts the deck asks for that are not installed, with what fontconfig draws instead', async () => {
    const result = await pool.render({
      accountId: 'a',
      deckFile: smallDeck,
      outputDir: outputDir(),
      pdf: true,
    });
    const installed = execFileSync('fc-list', [':', 'family']).toString().toLowerCase().split(/[,\n]/);
    for (const { requested, used } of result.substitutedFonts) {
      expect(installed).not.toContain(requested.toLowerCase());
      expect(used).toBe(execFileSync('fc-match', ['-f', '%{family[0]}', requested]).toString().trim());
    }
    // The theme's Calibri is on no Linux machine; fonts-crosextra-carlito is its metric twin.
    expect(result.substitutedFonts).toContainEqual({ requested: 'Calibri', used: 'Carlito' });
  });

  it('refuses a PNG width outside 16–8192 pixels before it takes a renderer', async () => {
    for (const pngWidth of [0, 15, 8193, 12.5]) {
      await expect(
        pool.render({ accountId: 'a', deckFile: smallDeck, outputDir: outputDir(), pdf: false, pngWidth }),
      ).rejects.toThrow(
        new RenderFailedError(
          `the PNG width must be a whole number of pixels from 16 to 8192, got ${pngWidth}`,
        ),
      );
    }
    expect(pool.status()).toMatchObject({ busy: 0, waiting: 0 });
  });

  it('PNG pages alone leave no PDF behind', async () => {
    const dir = outputDir();
    const result = await pool.render({
      accountId: 'a',
      deckFile: smallDeck,
      outputDir: dir,
      pdf: false,
      pngWidth: 200,
    });
    expect(result.pdfFile).toBeNull();
    expect(result.pageCount).toBe(2);
    expect(readdirSync(dir).sort()).toEqual(['slide-1.png', 'slide-2.png']);
  });

  it('renders at both ends of the range: 16 and 8192 pixels wide', async () => {
    for (const pngWidth of [16, 8192]) {
      const result = await pool.render({
        accountId: 'a',
        deckFile: oneSlideDeck,
        outputDir: outputDir(),
        pdf: false,
        pngWidth,
      });
      expect(result.pngFiles).toHaveLength(1);
      expect((await sharp(result.pngFiles[0]!).metadata()).width).toBe(pngWidth);
    }
  });

  it('a file that is no deck is a RenderFailedError in words, without server paths; the pool renders the next deck', async () => {
    const junk = deckFile('junk.pptx', new TextEncoder().encode('this is not a presentation'));
    const failure = await pool
      .render({ accountId: 'a', deckFile: junk, outputDir: outputDir(), pdf: true })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(failure).toBeInstanceOf(RenderFailedError);
    expect((failure as Error).message).toBe(
      'LibreOffice could not convert the deck: not a .pptx file (not a zip archive)',
    );
    const next = await pool.render({
      accountId: 'a',
      deckFile: smallDeck,
      outputDir: outputDir(),
      pdf: true,
    });
    expect(next.pageCount).toBe(2);
  });

  it("account B's single render is not stuck behind account A's ten", async () => {
    const finished: string[] = [];
    const track = (name: string, work: Promise<RenderResult>): Promise<RenderResult> =>
      work.then((result) => {
        finished.push(name);
        return result;
      });
    const a = Array.from({ length: 10 }, (_, i) =>
      track(`a${i}`, pool.render({ accountId: 'a', deckFile: deck, outputDir: outputDir(), pdf: true })),
    );
    // B asks once A's ten are all in: two running, eight waiting.
    await vi.waitFor(() => expect(pool.status()).toMatchObject({ busy: 2, waiting: 8 }), { timeout: 30_000 });
    const b = track('b', pool.render({ accountId: 'b', deckFile: deck, outputDir: outputDir(), pdf: true }));
    await Promise.all([...a, b]);
    // First come, first served would finish B last (11th); fair slots give it the first renderer that frees,
    // so it is done after two or three of A's (four allowed: the machine's load may slow B's own conversion).
    expect(finished.indexOf('b')).toBeLessThanOrEqual(4);
  });

  it('a request withdrawn while it waits leaves the queue at once', async () => {
    const settled: string[] = [];
    const busy = [0, 1].map((i) =>
      pool
        .render({ accountId: 'a', deckFile: deck, outputDir: outputDir(), pdf: true })
        .finally(() => settled.push(`a${i}`)),
    );
    const withdrawn = new AbortController();
    const waiting = pool
      .render({ accountId: 'b', deckFile: deck, outputDir: outputDir(), pdf: true, signal: withdrawn.signal })
      .finally(() => settled.push('b'));
    // Account a holds both renderers for a whole conversion; b is withdrawn while it waits for one.
    await new Promise((resolve) => setImmediate(resolve));
    withdrawn.abort();
    await expect(waiting).rejects.toBeInstanceOf(RenderCancelledError);
    expect(pool.status()).toMatchObject({ waiting: 0 });
    // It did not wait for a renderer to free: it was answered before either of a's conversions ended.
    expect(settled).toEqual(['b']);
    await Promise.all(busy);
    expect(pool.status()).toMatchObject({ busy: 0, waiting: 0 });
  });

  it('close() leaves no LibreOffice or bridge process behind, and refuses renders after it', async () => {
    const pids = pool.pids();
    const commands = pids.map(commandOf);
    expect(commands.some((c) => c.includes('soffice.bin'))).toBe(true);
    expect(commands.some((c) => c.includes('python'))).toBe(true);
    await pool.close();
    expect(pids.filter(running)).toEqual([]);
    expect(pool.pids()).toEqual([]);
    expect(pool.status()).toMatchObject({ available: false, reason: 'the renderer pool is shut down' });
    await expect(
      pool.render({ accountId: 'a', deckFile: smallDeck, outputDir: outputDir(), pdf: true }),
    ).rejects.toBeInstanceOf(RendererUnavailableError);
  });
});

describe('renderer pool without LibreOffice', () => {
  /** A PATH of one folder holding links to the given programs only. */
  function pathWith(programs: string[]): string {
    const dir = join(root, `path-${++folders}`);
    mkdirSync(dir);
    for (const name of programs) {
      const target = findExecutable(name, process.env.PATH ?? '');
      if (target) symlinkSync(target, join(dir, name));
    }
    return dir;
  }

  it('is unavailable, saying LibreOffice is missing, when soffice is not on PATH; render refuses at once', async () => {
    const pool = new LibreOfficeRendererPool(
      poolOptions({ searchPath: pathWith(['python3', 'pdftoppm', 'pdfinfo', 'fc-list', 'fc-match']) }),
    );
    await pool.detected();
    const status = pool.status();
    expect(status.available).toBe(false);
    expect(status.reason).toMatch(/LibreOffice \(soffice\) is not installed/);
    expect(status.reason).toMatch(/apt-get install libreoffice-impress python3-uno poppler-utils/);
    await expect(
      pool.render({ accountId: 'a', deckFile: join(root, 'none.pptx'), outputDir: outputDir(), pdf: true }),
    ).rejects.toThrow(RendererUnavailableError);
    await pool.close();
  });

  it('names python3-uno when the Python it is given cannot import uno', async () => {
    const pool = new LibreOfficeRendererPool(poolOptions({ python: join(pathWith([]), 'no-such-python') }));
    await pool.detected();
    if (
      findExecutable('soffice', process.env.PATH ?? '') &&
      findExecutable('pdftoppm', process.env.PATH ?? '')
    ) {
      expect(pool.status().reason).toMatch(/no Python with LibreOffice's UNO bindings .*install python3-uno/);
    } else {
      expect(pool.status().available).toBe(false);
    }
    await pool.close();
  });
});
