/**
 * Reading previews as a user checks them: a PDF's page count (pdfinfo) and each page's text (pdftotext), a
 * PNG's size from its header, and the height a slide of a deck should have at a given width.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { inspect } from '../../../src/engine/index.js';

/** Pages as pdfinfo counts them, and each page's text as pdftotext reads it. */
export function readPdf(bytes: Uint8Array): { pages: number; texts: string[] } {
  expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
  const dir = mkdtempSync(join(tmpdir(), 'deckforge-pdf-'));
  try {
    const path = join(dir, 'file.pdf');
    writeFileSync(path, bytes);
    const info = execFileSync('pdfinfo', [path], { encoding: 'utf8' });
    const pages = Number(/^Pages:\s+(\d+)/m.exec(info)?.[1]);
    const text = execFileSync('pdftotext', ['-layout', path, '-'], { encoding: 'utf8' });
    return { pages, texts: text.split('\f').slice(0, pages) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Width and height from a PNG's IHDR chunk. */
export function pngSize(bytes: Uint8Array): { width: number; height: number } {
  expect(Buffer.from(bytes.subarray(1, 4)).toString('latin1')).toBe('PNG');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/** The slide's height for `width` pixels, from the deck's own slide size. */
export function expectedHeight(deck: Uint8Array, width: number): number {
  const size = inspect(deck).slideSize;
  if (!size) throw new Error('the deck has no slide size');
  return (width * size.cy) / size.cx;
}
