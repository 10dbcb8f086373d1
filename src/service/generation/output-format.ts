/**
 * What a generation request asks to receive (docs/previews.md): the deck (`pptx`, the default), its PDF instead
 * (`pdf`), or both (`pptx+pdf`, jobs only), and optionally one PNG per slide (`previews=png`, jobs only) of a
 * chosen width. Read from the request's `format`, `previews` and `preview_width` fields, checked here so that
 * every transport refuses the same values with the same words.
 */
import { InvalidInputError } from '../errors.js';
import type { OutputFormat, OutputRequest } from '../deckforge-service.js';

export type { OutputFormat, OutputRequest };

export const DEFAULT_PREVIEW_WIDTH = 1280;
export const MIN_PREVIEW_WIDTH = 16;
export const MAX_PREVIEW_WIDTH = 4096;

/** The plain deck: what a request without any of the fields gets. */
export const DECK_ONLY: OutputRequest = { format: 'pptx', previewWidth: null };

/** The three fields as the transport received them (undefined when absent). */
export interface OutputFields {
  format?: string | undefined;
  previews?: string | undefined;
  preview_width?: string | undefined;
}

/** Whether the request needs LibreOffice at all. */
export function needsRenderer(output: OutputRequest): boolean {
  return output.format !== 'pptx' || output.previewWidth !== null;
}

export function previewWidthOf(text: string | undefined): number {
  if (text === undefined || text.trim() === '') return DEFAULT_PREVIEW_WIDTH;
  const width = Number(text.trim());
  if (!Number.isInteger(width) || width < MIN_PREVIEW_WIDTH || width > MAX_PREVIEW_WIDTH) {
    throw new InvalidInputError(
      `preview_width: "${text}" is not a width this server draws; give a whole number of pixels from ` +
        `${MIN_PREVIEW_WIDTH} to ${MAX_PREVIEW_WIDTH} (default ${DEFAULT_PREVIEW_WIDTH})`,
    );
  }
  return width;
}

/**
 * `mode` is the endpoint: a synchronous answer is one file (the deck or its PDF), so `pptx+pdf` and
 * `previews` are for jobs, whose status can carry several links.
 */
export function readOutputRequest(fields: OutputFields, mode: 'sync' | 'async'): OutputRequest {
  const format = (fields.format ?? 'pptx').trim().toLowerCase() || 'pptx';
  const formats: OutputFormat[] = mode === 'sync' ? ['pptx', 'pdf'] : ['pptx', 'pdf', 'pptx+pdf'];
  if (!(formats as string[]).includes(format)) {
    const async =
      mode === 'sync' && format === 'pptx+pdf'
        ? '; pptx+pdf (the deck and its PDF) is for POST /v2.0/generator/create-async, whose status carries both links'
        : '';
    throw new InvalidInputError(
      `format: "${fields.format}" is not an output format; use ${formats.join(', ')}${async}`,
    );
  }
  const previews = fields.previews?.trim().toLowerCase();
  if (previews !== undefined && previews !== '' && previews !== 'png' && previews !== 'none') {
    throw new InvalidInputError(
      `previews: "${fields.previews}" is not a preview kind; use png (one image per slide) or leave it out`,
    );
  }
  const wantsPreviews = previews === 'png';
  if (wantsPreviews && mode === 'sync') {
    throw new InvalidInputError(
      'previews: slide images come with jobs (POST /v2.0/generator/create-async, whose status lists a link per ' +
        'slide) or from POST /v1.0/render with format=png (a zip of the images)',
    );
  }
  if (!wantsPreviews && fields.preview_width !== undefined) {
    throw new InvalidInputError(
      'preview_width: it sets the width of slide images; send previews=png with it',
    );
  }
  return {
    format: format as OutputFormat,
    previewWidth: wantsPreviews ? previewWidthOf(fields.preview_width) : null,
  };
}
