/**
 * What poppler reads from the PDF LibreOffice wrote: its page count (pdfinfo), and its pages as PNG files of a
 * given width (pdftoppm), each keeping its page's aspect ratio.
 */
import { randomBytes } from 'node:crypto';
import { readdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { RenderFailedError } from '../../service/ports/renderer.js';
import { runTool } from './render-tools.js';

/** Poppler reads what a hostile deck became: it gets a locale and nothing of the server's environment. */
const POPPLER_ENVIRONMENT = { LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' };

/** Pages of `pdf`; RenderFailedError when poppler cannot open it. */
export async function pdfPageCount(
  pdfinfo: string,
  pdf: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<number> {
  const info = await runTool(pdfinfo, [pdf], { timeoutMs, signal, env: POPPLER_ENVIRONMENT });
  const pages = /^Pages:\s+(\d+)/m.exec(info.stdout);
  if (info.code !== 0 || !pages) {
    throw new RenderFailedError(
      `the PDF LibreOffice wrote does not open: ${info.stderr.trim() || 'no page count'}`,
    );
  }
  return Number(pages[1]);
}

/**
 * Pages pdftoppm draws per run: a poller is told how many are drawn after each run (RenderRequest.onPages), and
 * a run reads the PDF again, so not one page per run.
 */
export const PAGES_PER_RUN = 10;

/**
 * slide-1.png … slide-N.png, `width` pixels wide, each page's own aspect ratio; drawn PAGES_PER_RUN pages at a
 * time, `onDrawn` told the pages drawn after each run. `remaining` is the time budget left when a run starts.
 */
export async function drawPages(
  pdftoppm: string,
  pdf: string,
  width: number,
  pageCount: number,
  remaining: () => number,
  signal?: AbortSignal,
  onDrawn?: (pagesDrawn: number) => void,
): Promise<string[]> {
  const dir = join(pdf, '..');
  const prefix = join(dir, `.pages-${randomBytes(4).toString('hex')}`);
  for (let first = 1; first <= pageCount; first += PAGES_PER_RUN) {
    const last = Math.min(pageCount, first + PAGES_PER_RUN - 1);
    const run = await runTool(
      pdftoppm,
      [
        '-png',
        '-f',
        String(first),
        '-l',
        String(last),
        '-scale-to-x',
        String(width),
        '-scale-to-y',
        '-1',
        pdf,
        prefix,
      ],
      { timeoutMs: remaining(), signal, env: POPPLER_ENVIRONMENT },
    );
    if (run.code !== 0)
      throw new RenderFailedError(`pdftoppm could not draw the pages: ${run.stderr.trim()}`);
    onDrawn?.(last);
  }
  // pdftoppm numbers its pages with as many digits as the last one has: prefix-01.png … prefix-12.png.
  const base = prefix.slice(dir.length + 1);
  const drawn = (await readdir(dir))
    .map((name) => ({ name, page: Number(new RegExp(`^${base}-(\\d+)\\.png$`).exec(name)?.[1]) }))
    .filter((entry) => Number.isInteger(entry.page))
    .sort((a, b) => a.page - b.page);
  if (drawn.length !== pageCount) {
    throw new RenderFailedError(`pdftoppm drew ${drawn.length} of the PDF's ${pageCount} pages`);
  }
  return Promise.all(
    drawn.map(async ({ name, page }) => {
      const target = join(dir, `slide-${page}.png`);
      await rename(join(dir, name), target);
      return target;
    }),
  );
}
