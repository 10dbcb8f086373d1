/**
 * Turns a transport's GenerationRequest into something the engine can run: `jsonData` parsed and validated
 * (malformed → 400 before any work), the configured limits checked (400), uploaded templates present, and the
 * URLs the payload names fetched through the guarded fetcher (the engine never does network I/O).
 */
import { parsePayload, type DeckRequest, type Warning } from '../engine/index.js';
import type { GenerationRequest, UploadedFile } from './deckforge-service.js';
import { InvalidInputError } from './errors.js';
import { FetchError } from './ports/index.js';
import type { ServiceDeps } from './service-deps.js';

export interface PreparedRequest {
  /** The parsed `jsonData` value, passed to the engine as is. */
  payload: unknown;
  request: DeckRequest;
  warnings: Warning[];
  files: Map<string, Uint8Array>;
  slideCount: number;
}

const URL_PATTERN = /^https?:\/\/\S+$/i;
/** Text that happens to be a URL may be a picture: fetched when possible, at most this many per request. */
const MAX_OPTIONAL_URLS = 20;

export function parseJsonData(jsonData: unknown): unknown {
  if (typeof jsonData !== 'string') {
    if (jsonData === undefined || jsonData === null)
      throw new InvalidInputError('the jsonData field is required');
    return jsonData;
  }
  if (jsonData.trim() === '') throw new InvalidInputError('the jsonData field is required');
  try {
    return JSON.parse(jsonData) as unknown;
  } catch (error) {
    throw new InvalidInputError(`jsonData is not valid JSON: ${(error as Error).message}`);
  }
}

/** Parse + validate + limits; no I/O. `mode` decides whether the synchronous slide ceiling applies. */
export function prepareRequest(
  deps: ServiceDeps,
  input: GenerationRequest,
  mode: 'sync' | 'async',
): PreparedRequest {
  const limits = deps.settings.limits;
  if (input.files.length > limits.maxFilesPerRequest) {
    throw new InvalidInputError(
      `too many files: ${input.files.length} were sent, at most ${limits.maxFilesPerRequest} are accepted per request`,
    );
  }
  const totalBytes = input.files.reduce((sum, f) => sum + f.bytes.byteLength, 0);
  if (totalBytes > limits.maxUploadBytes) {
    throw new InvalidInputError(
      `the upload is ${megabytes(totalBytes)} MB, over the ${megabytes(limits.maxUploadBytes)} MB limit`,
    );
  }
  const payload = parseJsonData(input.jsonData);
  const { request, warnings } = parsePayload(payload); // EngineError INVALID_PAYLOAD → 400 at the transport
  const slideCount = request.slides.length;
  if (slideCount > limits.maxSlidesPerRequest) {
    throw new InvalidInputError(
      `the request asks for ${slideCount} slides; at most ${limits.maxSlidesPerRequest} slides are accepted per request`,
    );
  }
  if (mode === 'sync' && slideCount > limits.syncMaxSlides) {
    throw new InvalidInputError(
      `the request asks for ${slideCount} slides; synchronous generation accepts at most ${limits.syncMaxSlides}: ` +
        'use POST /v2.0/generator/create-async for larger decks',
    );
  }
  const files = filesByName(input.files);
  for (const template of usedTemplates(request)) {
    if (URL_PATTERN.test(template.source) || files.has(template.source)) continue;
    const sent = [...files.keys()].map((n) => `"${n}"`).join(', ') || 'no files';
    throw new InvalidInputError(
      `${template.path}: the template "${template.source}" was not uploaded (the request carries ${sent}); ` +
        'the name must equal the uploaded file name, or be an http(s) URL',
    );
  }
  return { payload, request, warnings, files, slideCount };
}

/** The templates slides actually use (a `template_list` entry no slide picks is never opened by the engine). */
function usedTemplates(request: DeckRequest): DeckRequest['templates'] {
  const used = new Set(request.slides.map((slide) => slide.templateId));
  return request.templates.filter((t) => t.id === null || used.has(t.id));
}

function filesByName(files: UploadedFile[]): Map<string, Uint8Array> {
  const map = new Map<string, Uint8Array>();
  for (const file of files) map.set(file.name, file.bytes);
  return map;
}

/**
 * Fetches the template URLs (required: a failure is the caller's error) and picture URLs. Throws FetchError.
 * Bare-string shape content that is a URL may be a picture or just text; it is fetched on a best-effort basis.
 */
export async function fetchRemoteFiles(deps: ServiceDeps, prepared: PreparedRequest): Promise<void> {
  const required = new Set<string>();
  const optional = new Set<string>();
  for (const template of usedTemplates(prepared.request)) {
    if (URL_PATTERN.test(template.source)) required.add(template.source);
  }
  for (const slide of prepared.request.slides) {
    for (const shape of slide.shapes) {
      const content = shape.content;
      if (content?.kind === 'picture' && URL_PATTERN.test(content.source)) required.add(content.source);
      if (content?.kind === 'string' && URL_PATTERN.test(content.value)) optional.add(content.value);
    }
  }
  const wanted = [...required].filter((url) => !prepared.files.has(url));
  await Promise.all(
    wanted.map(async (url) => {
      prepared.files.set(url, await deps.fetcher.fetch(url));
    }),
  );
  const maybe = [...optional].filter((url) => !prepared.files.has(url)).slice(0, MAX_OPTIONAL_URLS);
  await Promise.all(
    maybe.map(async (url) => {
      try {
        prepared.files.set(url, await deps.fetcher.fetch(url));
      } catch (error) {
        if (!(error instanceof FetchError)) throw error;
        // Most likely plain text that looks like a URL; a picture shape will report the missing file itself.
      }
    }),
  );
}

function megabytes(bytes: number): string {
  return (Math.round((bytes / (1024 * 1024)) * 10) / 10).toString();
}
