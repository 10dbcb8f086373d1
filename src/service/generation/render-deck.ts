/**
 * Rendering a finished deck through the Renderer port, as every use case does it (docs/previews.md): refused up front
 * with a clear 400 when this server cannot render (no LibreOffice), and no quota touched; the output written in
 * a folder of the request's own in the scratch folder; the port's errors turned into the service's, with words
 * a user can act on; the fonts LibreOffice had to replace reported as warnings.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Warning } from '../../engine/index.js';
import { ClientGoneError, InvalidInputError, ServiceUnavailableError } from '../errors.js';
import { isMetricCompatible } from './metric-compatible-fonts.js';
import {
  MAX_FONT_LOOKUPS,
  RenderCancelledError,
  RendererLostError,
  RenderFailedError,
  RendererUnavailableError,
  RenderTimeoutError,
  type RenderResult,
} from '../ports/index.js';
import type { ServiceDeps } from '../service-deps.js';

/** 400 (shape A): this server has no renderer; the reason says what the operator can install. */
export function unavailableError(reason: string | undefined): InvalidInputError {
  return new InvalidInputError(
    `previews are unavailable on this server: ${reason ?? 'its renderer (LibreOffice) is not available'}; ` +
      'the .pptx can still be had (leave out format and previews); see /docs/previews',
  );
}

/**
 * Throws the 400 of `unavailableError` when previews cannot be made here. Called before any quota is reserved,
 * after the tools were looked for, so a machine without the UNO bridge refuses the request rather than accepting a
 * job that would fail.
 */
export async function requireRenderer(deps: ServiceDeps): Promise<void> {
  await deps.renderer.detected();
  const status = deps.renderer.status();
  if (!status.available) throw unavailableError(status.reason);
}

export interface RenderedFiles extends RenderResult {
  /** The request's own folder, where the files are (more may be written beside them). */
  outputDir: string;
  /** Removes the folder the files are in. */
  discard(): Promise<void>;
}

export interface RenderAsk {
  accountId: string;
  deckFile: string;
  pdf: boolean;
  pngWidth: number | null;
  signal?: AbortSignal | undefined;
  /** RenderRequest.onPages. */
  onPages?: ((pagesRendered: number, pageCount: number) => void) | undefined;
}

/** Renders `deckFile` into a fresh folder of the scratch folder; the caller discards it. */
export async function renderDeck(deps: ServiceDeps, ask: RenderAsk): Promise<RenderedFiles> {
  const outputDir = await mkdtemp(join(deps.settings.scratchDir, 'render-'));
  const discard = (): Promise<void> => rm(outputDir, { recursive: true, force: true });
  try {
    const result = await deps.renderer.render({
      accountId: ask.accountId,
      deckFile: ask.deckFile,
      outputDir,
      pdf: ask.pdf,
      ...(ask.pngWidth === null ? {} : { pngWidth: ask.pngWidth }),
      ...(ask.signal ? { signal: ask.signal } : {}),
      ...(ask.onPages ? { onPages: ask.onPages } : {}),
    });
    return { ...result, outputDir, discard };
  } catch (error) {
    await discard();
    throw renderError(error, ask.signal);
  }
}

/**
 * The port's errors in the service's terms: the request's to act on (400), but a renderer that died under the
 * deck, which is the server's trouble: 503 with Retry-After (it was replaced; the same deck may well render).
 */
function renderError(error: unknown, signal: AbortSignal | undefined): unknown {
  if (error instanceof RenderCancelledError || signal?.aborted) return new ClientGoneError();
  if (error instanceof RendererLostError) {
    return new ServiceUnavailableError(
      `the renderer stopped while it converted the deck and was replaced: try again shortly (${error.message})`,
    );
  }
  if (error instanceof RendererUnavailableError) return unavailableError(error.message);
  if (error instanceof RenderTimeoutError) {
    return new InvalidInputError(
      `rendering the deck took longer than the ${Math.round(error.budgetMs / 1000)}-second limit and was ` +
        'stopped: ask for fewer slides, or leave out format and previews to get the .pptx',
    );
  }
  if (error instanceof RenderFailedError) {
    return new InvalidInputError(`LibreOffice could not render the deck: ${error.message}`);
  }
  return error;
}

/** Fonts named in the warning about the missing fonts that were not looked up. */
const OTHER_FONTS_NAMED = 5;

/**
 * One warning per embedded font that was not drawn (naming its part and why), and per font the renderer had to
 * replace, in the shape of the generation warnings; none for a font drawn with its metric-compatible twin
 * (Calibri with Carlito), which looks as in PowerPoint. The missing fonts past those looked up get one warning
 * together.
 */
export function fontWarnings(
  rendered: Pick<RenderResult, 'substitutedFonts' | 'otherMissingFonts' | 'fontWarnings'>,
): Warning[] {
  const substituted = rendered.substitutedFonts
    .filter(({ requested, used }) => !isMetricCompatible(requested, used))
    .map(({ requested, used }) => ({
      path: 'FONT_SUBSTITUTED',
      message:
        `the font "${requested}" is not installed on this server; the PDF and slide images use "${used}" ` +
        'instead, so text may take more or less room than in PowerPoint (see /docs/previews#fonts)',
    }));
  const warnings = [...rendered.fontWarnings, ...substituted];
  const others = rendered.otherMissingFonts;
  if (others.length === 0) return warnings;
  const named = others.slice(0, OTHER_FONTS_NAMED).map((name) => `"${name}"`);
  if (others.length > OTHER_FONTS_NAMED) named.push(`${others.length - OTHER_FONTS_NAMED} more`);
  return [
    ...warnings,
    {
      path: 'FONT_SUBSTITUTED',
      message:
        `${others.length} more fonts are not installed on this server (${named.join(', ')}); the PDF and slide ` +
        `images draw them with other fonts. A deck's stand-ins are looked up for ${MAX_FONT_LOOKUPS} missing fonts ` +
        'at most: use fewer fonts (see /docs/previews#fonts)',
    },
  ];
}

/** `report-q3.pptx` → `report-q3`. */
export function deckBaseName(fileName: string): string {
  return fileName.replace(/\.(pptx|potx|pptm)$/i, '');
}

/** `report-q3.pptx` → `report-q3.pdf`; a name without the extension gets it appended. */
export function withExtension(fileName: string, extension: string): string {
  return `${deckBaseName(fileName)}.${extension}`;
}
