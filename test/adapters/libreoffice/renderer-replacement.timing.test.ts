/**
 * A renderer that goes wrong is killed and replaced, with a real LibreOffice: a conversion past its budget, a
 * LibreOffice killed in the middle of a deck, and a renderer worn by N conversions. One pool of one renderer
 * for the file, with a 2.5 s budget and recycling after 3 conversions; the slow deck is 700 slides of 30
 * paragraphs: about 6 s of LibreOffice's time on a quiet 2-core machine (400 slides once took under 4 s and
 * beat the budget), far more under load, while a 2-slide deck takes a few hundred milliseconds.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { LibreOfficeRendererPool } from '../../../src/adapters/libreoffice/libreoffice-renderer-pool.js';
import {
  RenderCancelledError,
  RendererLostError,
  RenderTimeoutError,
} from '../../../src/service/ports/renderer.js';
import { expectValidPptx } from '../../support/checks/expect-valid-pptx.js';
import { layoutsTemplate } from '../../support/decks/layouts-template.js';
import { describeWithLibreOffice, running } from '../../support/servers/libreoffice.js';
import { previewDeck } from '../../support/decks/preview-decks.js';

const BUDGET_MS = 2500;
const RECYCLE_AFTER = 3;

const root = mkdtempSync(join(tmpdir(), 'deckforge-renderer-replacement-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let folders = 0;
function outputDir(): string {
  const dir = join(root, `out-${++folders}`);
  mkdirSync(dir);
  return dir;
}

const isOffice = (pid: number): boolean => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('soffice.bin');
  } catch {
    return false;
  }
};

describeWithLibreOffice('LibreOffice renderer replacement', () => {
  let pool: LibreOfficeRendererPool;
  let slow: string;
  let small: string;
  const replaced: string[] = [];

  beforeAll(async () => {
    const slowBytes = previewDeck(700, { paragraphs: 30 });
    const smallBytes = previewDeck(2);
    await expectValidPptx(slowBytes, layoutsTemplate());
    await expectValidPptx(smallBytes, layoutsTemplate());
    slow = join(root, 'slow.pptx');
    small = join(root, 'small.pptx');
    writeFileSync(slow, slowBytes);
    writeFileSync(small, smallBytes);
    pool = new LibreOfficeRendererPool({
      size: 1,
      timeoutMs: BUDGET_MS,
      recycleAfter: RECYCLE_AFTER,
      memoryCeilingMb: 8192,
      workDir: join(root, 'pool'),
      searchPath: process.env.PATH ?? '',
      python: null,
      onReplace: (reason) => replaced.push(reason),
    });
    await pool.detected();
  });
  afterAll(async () => {
    await pool?.close();
  });

  const renderSmall = () =>
    pool.render({ accountId: 'a', deckFile: small, outputDir: outputDir(), pdf: true });

  it('a conversion past its budget is a RenderTimeoutError; its LibreOffice is killed and a fresh one renders the next deck', async () => {
    await renderSmall(); // Started and warm: the budget is the conversion's alone.
    const before = pool.pids();
    const started = Date.now();
    await expect(
      pool.render({ accountId: 'a', deckFile: slow, outputDir: outputDir(), pdf: true }),
    ).rejects.toBeInstanceOf(RenderTimeoutError);
    expect(Date.now() - started).toBeLessThan(BUDGET_MS + 3000);
    await vi.waitFor(() => expect(before.filter(running)).toEqual([]), { timeout: 10_000 });
    expect(replaced.at(-1)).toMatch(/budget/);
    const next = await renderSmall();
    expect(next.pageCount).toBe(2);
    expect(pool.pids().some((pid) => before.includes(pid))).toBe(false);
  });

  it('a LibreOffice killed in the middle of a deck fails that render only; the next one works', async () => {
    const slowRender = pool.render({ accountId: 'a', deckFile: slow, outputDir: outputDir(), pdf: true });
    await vi.waitFor(() => expect(pool.status().busy).toBe(1));
    const office = pool.pids().filter(isOffice);
    expect(office).toHaveLength(1);
    // Let it get into the deck, then kill it from outside, as the kernel's OOM killer would.
    await new Promise((resolve) => setTimeout(resolve, 500));
    process.kill(office[0] as number, 'SIGKILL');
    const failure = await slowRender.then(
      () => null,
      (error: unknown) => error,
    );
    // The server's trouble, not the deck's: the service answers 503 with Retry-After (render-deck.ts).
    expect(failure).toBeInstanceOf(RendererLostError);
    expect((failure as Error).message).toMatch(/LibreOffice stopped|the renderer was replaced/);
    const next = await renderSmall();
    expect(next.pageCount).toBe(2);
    expect(pool.pids()).not.toContain(office[0]);
  });

  it('a render withdrawn while LibreOffice converts it is cancelled at once; its LibreOffice is replaced', async () => {
    const withdrawn = new AbortController();
    const slowRender = pool.render({
      accountId: 'a',
      deckFile: slow,
      outputDir: outputDir(),
      pdf: true,
      signal: withdrawn.signal,
    });
    await vi.waitFor(() => expect(pool.status().busy).toBe(1));
    const before = pool.pids();
    withdrawn.abort();
    const started = Date.now();
    await expect(slowRender).rejects.toBeInstanceOf(RenderCancelledError);
    expect(Date.now() - started).toBeLessThan(1000);
    await vi.waitFor(() => expect(before.filter(running)).toEqual([]), { timeout: 10_000 });
    expect((await renderSmall()).pageCount).toBe(2);
  });

  it(`a renderer is replaced after ${RECYCLE_AFTER} conversions, and the worn one ends`, async () => {
    // Render until a replacement shows, then count the fresh renderer's conversions from its first.
    let worn = pool.pids();
    for (let i = 0; i < RECYCLE_AFTER && pool.pids().every((pid) => worn.includes(pid)); i++)
      await renderSmall();
    await vi.waitFor(() => expect(worn.filter(running)).toEqual([]), { timeout: 10_000 });
    await renderSmall(); // The fresh renderer's first.
    const fresh = pool.pids();
    expect(fresh.some((pid) => worn.includes(pid))).toBe(false);
    for (let i = 2; i < RECYCLE_AFTER; i++) {
      await renderSmall();
      expect(pool.pids()).toEqual(fresh);
    }
    await renderSmall();
    expect(replaced.at(-1)).toBe(`recycled after ${RECYCLE_AFTER} conversions`);
    expect(pool.pids().some((pid) => fresh.includes(pid))).toBe(false);
    worn = fresh;
    await vi.waitFor(() => expect(worn.filter(running)).toEqual([]), { timeout: 10_000 });
  });

  it('close() leaves none of its processes running', async () => {
    await renderSmall();
    const pids = pool.pids();
    expect(pids.length).toBeGreaterThanOrEqual(3); // oosplash, soffice.bin, the bridge
    await pool.close();
    expect(pids.filter(running)).toEqual([]);
  });
});
