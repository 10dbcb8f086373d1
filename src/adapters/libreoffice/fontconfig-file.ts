/**
 * The font folder of a one-off renderer (docs/previews.md "Fonts"; docs/security.md "The fonts a deck embeds"):
 * the checked font files of its one deck (the engine's render-safe copy extracts them), and a fontconfig file
 * that names that folder beside the system's configuration and keeps fontconfig's cache of it in the renderer's
 * own temporary folder. LibreOffice, started with FONTCONFIG_FILE pointing at it, draws the deck's fonts; the
 * system's fonts, its configuration and its cache (/var/cache/fontconfig, read-only in the sandbox) are not
 * changed, and the folder goes with the renderer.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RendererFont } from '../../engine/index.js';

/** The system's fontconfig file, which the renderer's includes (Debian's, and fontconfig's default). */
const SYSTEM_FONTCONFIG = '/etc/fonts/fonts.conf';

/**
 * Writes `fonts` into `folder/files` and `folder/fonts.conf`; `inside` and `cache` are where the renderer sees
 * that folder and where its fontconfig cache goes. Returns the fontconfig file's path as the renderer sees it.
 */
export function writeFontFolder(
  folder: string,
  fonts: readonly RendererFont[],
  seen: { inside: string; cache: string },
): string {
  mkdirSync(join(folder, 'files'), { recursive: true });
  for (const font of fonts) writeFileSync(join(folder, 'files', font.fileName), font.bytes);
  // The cache comes first: fontconfig writes to the first cache folder it may write to.
  const conf = [
    '<?xml version="1.0"?>',
    '<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">',
    '<fontconfig>',
    `  <cachedir>${xmlText(seen.cache)}</cachedir>`,
    `  <dir>${xmlText(join(seen.inside, 'files'))}</dir>`,
    `  <include ignore_missing="no">${SYSTEM_FONTCONFIG}</include>`,
    '</fontconfig>',
    '',
  ].join('\n');
  writeFileSync(join(folder, 'fonts.conf'), conf);
  return join(seen.inside, 'fonts.conf');
}

function xmlText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
