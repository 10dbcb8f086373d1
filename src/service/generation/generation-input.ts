/**
 * Turns a transport's GenerationRequest into something the engine can run: `jsonData` parsed and validated
 * (malformed → 400 before any work) and the configured limits checked (400); the templates it names that were
 * not uploaded are found among the stored ones (templates/stored-template-resolution.ts). The URLs the payload
 * names are fetched next (remote-files.ts).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import {
  checkJsonLimits,
  countRequestedSlides,
  parseJsonText,
  parsePayload,
  slideCountText,
  type DeckRequest,
  type Warning,
} from '../../engine/index.js';
import type { GenerationRequest, UploadedFile } from '../deckforge-service.js';
import { refuseEmptyUploads } from '../empty-upload.js';
import { InvalidInputError } from '../errors.js';
import type { GenerationTask } from '../ports/index.js';
import { fetchRemoteFiles, usedTemplates } from './remote-files.js';
import type { ServiceDeps } from '../service-deps.js';

export interface PreparedRequest {
  /** The parsed `jsonData` value, passed to the engine as is. */
  payload: unknown;
  /**
   * `jsonData` as the text it came as, when it did: the generation thread is sent this instead of `payload`
   * (a string is copied to the thread at once; the parsed object would be cloned member by member).
   */
  payloadText?: string;
  request: DeckRequest;
  warnings: Warning[];
  files: Map<string, Uint8Array>;
  /** SHA-256 of files whose hash is known without hashing them (stored templates'), by name. */
  fileHashes?: Map<string, string>;
  slideCount: number;
}

export const URL_PATTERN = /^https?:\/\/\S+$/i;

/** A request over the synchronous slide limit: a 400 for POST /v1.0/generator/create, a job for generate_deck. */
export class OverSyncLimitError extends InvalidInputError {}

export function parseJsonData(jsonData: unknown): unknown {
  if (typeof jsonData !== 'string') {
    if (jsonData === undefined || jsonData === null)
      throw new InvalidInputError('the jsonData field is required');
    return jsonData;
  }
  if (jsonData.trim() === '') throw new InvalidInputError('the jsonData field is required');
  checkJsonLimits(jsonData); // before JSON.parse: what it builds must survive JSON.stringify and cloning
  return parseJsonText(jsonData);
}

/**
 * Parse + validate + limits; no I/O; templates the request names may be missing from `files` (a stored
 * template fills them in: templates/stored-template-resolution.ts). `mode` decides whether the synchronous
 * slide ceiling applies.
 */
export function parseRequest(
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
  refuseEmptyUploads('files', input.files);
  const totalBytes = input.files.reduce((sum, f) => sum + f.bytes.byteLength, 0);
  if (totalBytes > limits.maxUploadBytes) {
    throw new InvalidInputError(
      `the upload is ${megabytes(totalBytes)} MB, over the ${megabytes(limits.maxUploadBytes)} MB limit`,
    );
  }
  const payload = parseJsonData(input.jsonData);
  const { request, warnings } = parsePayload(payload); // EngineError INVALID_PAYLOAD → 400 at the transport
  const files = filesByName(input.files);
  const slideCount = countRequestedSlides(request, files);
  checkSlideLimits(limits, slideCount, mode);
  const text = typeof input.jsonData === 'string' ? { payloadText: input.jsonData } : {};
  return { payload, ...text, request, warnings, files, slideCount };
}

/**
 * The slide limits (docs/security.md, The limits and their variables), for the slides a request asks for with
 * its `all_slides` entries expanded (countRequestedSlides): a 400 before anything is reserved or generated.
 */
export function checkSlideLimits(
  limits: ServiceDeps['settings']['limits'],
  slideCount: number,
  mode: 'sync' | 'async',
): void {
  if (slideCount > limits.maxSlidesPerRequest) {
    throw new InvalidInputError(
      `the request asks for ${slideCountText(slideCount)}; a request may ask for at most ${slideCountText(limits.maxSlidesPerRequest)}`,
    );
  }
  if (mode === 'sync' && slideCount > limits.syncMaxSlides) {
    throw new OverSyncLimitError(
      `the request asks for ${slideCountText(slideCount)}; synchronous generation accepts at most ${limits.syncMaxSlides}: ` +
        'use POST /v2.0/generator/create-async for larger decks',
    );
  }
}

/** The templates the request uses that are neither among its files nor a URL, in the payload's order. */
export function missingTemplates(prepared: PreparedRequest): { path: string; source: string }[] {
  return usedTemplates(prepared.request).filter(
    (template) => !URL_PATTERN.test(template.source) && !prepared.files.has(template.source),
  );
}

function filesByName(files: UploadedFile[]): Map<string, Uint8Array> {
  const map = new Map<string, Uint8Array>();
  for (const file of files) map.set(file.name, file.bytes);
  return map;
}

/** What fetching a request's URLs left: the bodies on disk, and the pictures that could not be had. */
export interface FetchedUrls {
  /** Picture URLs that could not be fetched, with the reason. */
  unavailable: Map<string, string>;
  /** The fetched bodies, by URL: files in a folder of this request's own, read by the generation thread. */
  paths: Map<string, string>;
  /** Removes the downloads (after the generation, or when the request fails). */
  discard(): Promise<void>;
}

/**
 * Fetches the URLs the request needs, all within one deadline and one byte allowance, to disk; a template URL
 * that fails is the caller's error (FetchError). `signal` stops the downloads (the client went away).
 */
export async function fetchRequestUrls(
  deps: ServiceDeps,
  prepared: PreparedRequest,
  signal?: AbortSignal,
): Promise<FetchedUrls> {
  const { limits, fetchTimeoutMs, scratchDir } = deps.settings;
  // Made on the first download: most requests name no URL, and a folder made and removed for nothing costs
  // a few system calls on each of them.
  let made: Promise<string> | null = null;
  const directory = (): Promise<string> => (made ??= mkdtemp(join(scratchDir, 'fetched-')));
  const discard = async (): Promise<void> => {
    if (made) await rm(await made, { recursive: true, force: true });
  };
  const paths = new Map<string, string>();
  try {
    const unavailable = await fetchRemoteFiles(deps.fetcher, prepared.request, prepared.files, {
      concurrency: limits.fetchConcurrency,
      limits: {
        // The fetcher's timers run on the system clock, not the service's (which tests move): so does this.
        deadline: Date.now() + fetchTimeoutMs,
        budget: { remaining: limits.maxFetchBytes, total: limits.maxFetchBytes },
        ...(signal ? { signal } : {}),
      },
      pictureMaxBytes: limits.maxImageBytes,
      toDisk: { directory, paths },
    });
    return { unavailable, paths, discard };
  } catch (error) {
    await discard();
    throw error;
  }
}

/** What the generation pool runs: the prepared request, the fetched files, the image caps. */
/** `maxSlides`: the most slides the deck may have, continuation slides of long tables included. */
export function generationTask(
  deps: ServiceDeps,
  prepared: PreparedRequest,
  fetched: FetchedUrls,
  maxSlides: number,
): GenerationTask {
  const { maxImagePixels, maxImageBytes } = deps.settings.limits;
  return {
    payload: prepared.payload,
    ...(prepared.payloadText === undefined ? {} : { payloadText: prepared.payloadText }),
    files: prepared.files,
    ...(prepared.fileHashes ? { fileHashes: prepared.fileHashes } : {}),
    filePaths: fetched.paths,
    unavailable: fetched.unavailable,
    imageLimits: { maxPixels: maxImagePixels, maxBytes: maxImageBytes },
    maxSlides,
  };
}

function megabytes(bytes: number): string {
  return (Math.round((bytes / (1024 * 1024)) * 10) / 10).toString();
}
