/**
 * Turns a transport's GenerationRequest into something the engine can run: `jsonData` parsed and validated
 * (malformed → 400 before any work), the configured limits checked (400) and uploaded templates present. The
 * URLs the payload names are fetched next (remote-files.ts).
 */
import {
  checkJsonLimits,
  parsePayload,
  slideCountText,
  type DeckRequest,
  type Warning,
} from '../engine/index.js';
import type { GenerationRequest, UploadedFile } from './deckforge-service.js';
import { InvalidInputError } from './errors.js';
import type { GenerationTask } from './ports/index.js';
import { fetchRemoteFiles, usedTemplates } from './remote-files.js';
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

export function parseJsonData(jsonData: unknown): unknown {
  if (typeof jsonData !== 'string') {
    if (jsonData === undefined || jsonData === null)
      throw new InvalidInputError('the jsonData field is required');
    return jsonData;
  }
  if (jsonData.trim() === '') throw new InvalidInputError('the jsonData field is required');
  checkJsonLimits(jsonData); // before JSON.parse: what it builds must survive JSON.stringify and cloning
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
      `the request asks for ${slideCountText(slideCount)}; a request may ask for at most ${slideCountText(limits.maxSlidesPerRequest)}`,
    );
  }
  if (mode === 'sync' && slideCount > limits.syncMaxSlides) {
    throw new InvalidInputError(
      `the request asks for ${slideCountText(slideCount)}; synchronous generation accepts at most ${limits.syncMaxSlides}: ` +
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

function filesByName(files: UploadedFile[]): Map<string, Uint8Array> {
  const map = new Map<string, Uint8Array>();
  for (const file of files) map.set(file.name, file.bytes);
  return map;
}

/** Fetches the URLs the request needs; a template URL that fails is the caller's error (InvalidInputError for 400). */
export async function fetchRequestUrls(
  deps: ServiceDeps,
  prepared: PreparedRequest,
): Promise<Map<string, string>> {
  return fetchRemoteFiles(deps.fetcher, prepared.request, prepared.files, {
    concurrency: deps.settings.limits.fetchConcurrency,
  });
}

/** What the generation pool runs: the prepared request, the pictures that could not be fetched, the image caps. */
/** `maxSlides`: the most slides the deck may have, continuation slides of long tables included. */
export function generationTask(
  deps: ServiceDeps,
  prepared: PreparedRequest,
  unavailable: ReadonlyMap<string, string>,
  maxSlides: number,
): GenerationTask {
  const { maxImagePixels, maxImageBytes } = deps.settings.limits;
  return {
    payload: prepared.payload,
    files: prepared.files,
    unavailable,
    imageLimits: { maxPixels: maxImagePixels, maxBytes: maxImageBytes },
    maxSlides,
  };
}

function megabytes(bytes: number): string {
  return (Math.round((bytes / (1024 * 1024)) * 10) / 10).toString();
}
