/**
 * Whether a preview gives away what a renderer must not see (planted-secrets.ts), read as a person reading the
 * file would: a PDF's text (pdftotext), its metadata (pdfinfo), its link annotations and actions (the URIs in
 * the file, launch and remote go-to actions), and its pages drawn (pdftoppm) and searched for the secret's
 * colour; a PNG's pixels searched the same way. Each problem comes back as a sentence; none: nothing leaked.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { SECRET_COLOUR, SECRET_WORDS } from '../servers/planted-secrets.js';

/** Pixels of the secret's colour a page may hold by chance (anti-aliasing): none of the decks draws magenta. */
const STRAY_PIXELS = 4;

/** Problems of `pdf`: secret words or server paths in its text or metadata, links other than `allowedLinks`, the secret's colour drawn. */
export async function pdfLeaks(
  pdf: Uint8Array,
  options: { allowedLinks: string[]; paths: string[] },
): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'deckforge-leaks-'));
  try {
    const file = join(dir, 'preview.pdf');
    writeFileSync(file, pdf);
    const problems: string[] = [];
    const text = execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-']).toString();
    const info = execFileSync('pdfinfo', [file]).toString();
    for (const [where, content] of [
      ['text', text],
      ['metadata', info],
    ] as const) {
      if (content.includes(SECRET_WORDS)) problems.push(`the PDF's ${where} holds the secret words`);
      for (const path of [...options.paths, '/renderer/'])
        if (content.includes(path)) problems.push(`the PDF's ${where} names ${path}`);
    }
    const raw = Buffer.from(pdf).toString('latin1');
    const links = [...raw.matchAll(/\/URI\s*\(((?:[^()\\]|\\.)*)\)/g)].map((match) => match[1] as string);
    for (const link of links)
      if (!options.allowedLinks.includes(link)) problems.push(`the PDF links to ${link}`);
    for (const action of ['/Launch', '/GoToR', '/GoToE', '/ImportData', '/SubmitForm'])
      if (raw.includes(action)) problems.push(`the PDF has a ${action} action`);
    execFileSync('pdftoppm', ['-r', '24', '-png', file, join(dir, 'page')]);
    for (const page of readdirSync(dir)
      .filter((name) => name.startsWith('page'))
      .sort()) {
      const count = await secretPixels(readFileSync(join(dir, page)));
      if (count > STRAY_PIXELS)
        problems.push(`${page} of the PDF draws ${count} pixels of the secret's colour`);
    }
    return problems;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Problems of a PNG page: the secret's colour drawn. */
export async function pngLeaks(png: Uint8Array, name: string): Promise<string[]> {
  const count = await secretPixels(png);
  return count > STRAY_PIXELS ? [`${name} draws ${count} pixels of the secret's colour`] : [];
}

/** Pixels near the secret's colour. */
async function secretPixels(image: Uint8Array): Promise<number> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let count = 0;
  for (let i = 0; i < data.length; i += info.channels) {
    const near =
      Math.abs((data[i] ?? 0) - SECRET_COLOUR.r) < 40 &&
      Math.abs((data[i + 1] ?? 0) - SECRET_COLOUR.g) < 40 &&
      Math.abs((data[i + 2] ?? 0) - SECRET_COLOUR.b) < 40;
    if (near) count++;
  }
  return count;
}
