/**
 * The renderer of `deckforge generate -o X.pdf | --previews DIR` and `deckforge render` (docs/previews.md): one
 * LibreOffice process of the command's own, in a temporary folder, stopped when the command ends. The settings
 * are the service's (DECKFORGE_RENDER_TIMEOUT_SECONDS, DECKFORGE_RENDER_PYTHON, PATH). Loaded only when a
 * command renders, so a plain `deckforge generate` starts as fast as before.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadConfig } from '../config/index.js';
import { LibreOfficeRendererPool } from '../adapters/libreoffice/libreoffice-renderer-pool.js';
import {
  RenderFailedError,
  RendererLostError,
  RendererUnavailableError,
  RenderTimeoutError,
  type RenderRequest,
  type RenderResult,
} from '../service/ports/renderer.js';
import type { CommandIo } from './command-io.js';

/** The renderer cannot work here (no LibreOffice, no uno bridge, no poppler): the reason says what to install. */
export class PreviewsUnavailableError extends Error {
  override readonly name = 'PreviewsUnavailableError';
}

export interface CliRender {
  /** Renders `deckFile`: the PDF and/or PNG pages, in a folder of this renderer's (gone at `close`). */
  render(
    deckFile: string,
    ask: { pdf: boolean; pngWidth: number | null; onPages?: RenderRequest['onPages'] },
  ): Promise<RenderResult>;
  close(): Promise<void>;
}

const ACCOUNT = 'cli';

export async function openCliRenderer(): Promise<CliRender> {
  const config = loadConfig();
  const settings = config.rendering;
  const root = mkdtempSync(join(tmpdir(), 'deckforge-render-'));
  const pool = new LibreOfficeRendererPool({
    size: 1,
    timeoutMs: settings.timeoutMs,
    recycleAfter: settings.recycleAfter,
    memoryCeilingMb: settings.memoryMb,
    workDir: join(root, 'renderer'),
    searchPath: settings.searchPath,
    python: settings.python,
    isolation: settings.isolation,
    maxImagePixels: config.limits.maxImagePixels,
  });
  const close = async (): Promise<void> => {
    await pool.close();
    rmSync(root, { recursive: true, force: true });
  };
  await pool.detected();
  const status = pool.status();
  if (!status.available) {
    await close();
    throw new PreviewsUnavailableError(
      `previews are unavailable here: ${status.reason ?? 'LibreOffice is not available'} (docs/previews.md)`,
    );
  }
  let outputs = 0;
  return {
    async render(deckFile, ask) {
      const outputDir = join(root, `out-${++outputs}`);
      mkdirSync(outputDir);
      return pool.render({
        accountId: ACCOUNT,
        deckFile: resolve(deckFile),
        outputDir,
        pdf: ask.pdf,
        ...(ask.pngWidth === null ? {} : { pngWidth: ask.pngWidth }),
        ...(ask.onPages ? { onPages: ask.onPages } : {}),
      });
    },
    close,
  };
}

/** Copies the PNG pages into `folder` (created if missing) as slide-1.png, slide-2.png, …; returns their paths. */
export function writePages(pngFiles: string[], folder: string): string[] {
  mkdirSync(folder, { recursive: true });
  return pngFiles.map((file, index) => {
    const target = resolve(folder, `slide-${index + 1}.png`);
    copyFileSync(file, target);
    return target;
  });
}

/** The font warnings, on stderr like the generation warnings. */
export function reportFonts(result: RenderResult, io: CommandIo, quiet: boolean): void {
  if (quiet) return;
  for (const { path, message } of result.fontWarnings) io.stderr(`warning: ${path}: ${message}\n`);
  for (const { requested, used } of result.substitutedFonts) {
    io.stderr(
      `warning: FONT_SUBSTITUTED: the font "${requested}" is not installed; "${used}" was drawn instead ` +
        '(docs/previews.md#fonts)\n',
    );
  }
  const others = result.otherMissingFonts;
  if (others.length > 0) {
    io.stderr(
      `warning: FONT_SUBSTITUTED: ${others.length} more fonts are not installed ("${others[0]}", …); ` +
        'other fonts were drawn instead (docs/previews.md#fonts)\n',
    );
  }
}

/** A one-line message for what went wrong while rendering; anything else is rethrown. */
export function reportRenderError(error: unknown, io: CommandIo): number | null {
  if (error instanceof RenderFailedError) {
    io.stderr(`error: LibreOffice could not render the deck: ${error.message}\n`);
    return 1;
  }
  const known =
    error instanceof PreviewsUnavailableError ||
    error instanceof RendererUnavailableError ||
    error instanceof RendererLostError ||
    error instanceof RenderTimeoutError;
  if (!known) return null;
  io.stderr(`error: ${error.message}\n`);
  return 1;
}
