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

/** slide-1.png … slide-N.png, `width` pixels wide, each page's own aspect ratio. */
export async function drawPages(
  pdftoppm: string,
  pdf: string,
  width: number,
  pageCount: number,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<string[]> {
  const dir = join(pdf, '..');
  const prefix = join(dir, `.pages-${randomBytes(4).toString('hex')}`);
  const run = await runTool(
    pdftoppm,
    ['-png', '-scale-to-x', String(width), '-scale-to-y', '-1', pdf, prefix],
    { timeoutMs, signal, env: POPPLER_ENVIRONMENT },
  );
  if (run.code !== 0) throw new RenderFailedError(`pdftoppm could not draw the pages: ${run.stderr.trim()}`);
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
