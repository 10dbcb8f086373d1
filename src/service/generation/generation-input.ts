/**
 * Turns a transport's GenerationRequest into something the engine can run: `jsonData` checked for nesting and
 * size on its text, then parsed and validated, on a generation thread (docs/security.md, "Nothing of one
 * request blocks the others"; malformed → 400 before any work) and the configured limits checked (400); the
 * templates it names that were not uploaded are found among the stored ones
 * (stored-template-resolution.ts). The URLs the payload names are fetched next (remote-files.ts).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { countRequestedSlides, slideCountText, type PayloadFacts, type Warning } from '../../engine/index.js';
import type { GenerationRequest, UploadedFile } from '../deckforge-service.js';
import { refuseEmptyUploads } from '../empty-upload.js';
import { InvalidInputError } from '../errors.js';
import type { GenerationTask, PayloadSource } from '../ports/index.js';
import { fetchRemoteFiles } from './remote-files.js';
import type { ServiceDeps } from '../service-deps.js';

export interface PreparedRequest {
  /**
   * `jsonData` as the text it came as (a string is copied to a thread at once, and parsed there each time it is
   * needed), or the value a JSON body carried.
   */
  source: PayloadSource;
  /** What the generation thread that read the payload told of it: templates, URLs, slides. */
  facts: PayloadFacts;
  warnings: Warning[];
  files: Map<string, Uint8Array>;
  /** SHA-256 of files whose hash is known without hashing them (stored templates'), by name. */
  fileHashes?: Map<string, string>;
  slideCount: number;
}

export const URL_PATTERN = /^https?:\/\/\S+$/i;

/** A request over the synchronous slide limit: a 400 for POST /v1.0/generator/create, a job for generate_deck. */
export class OverSyncLimitError extends InvalidInputError {
  override readonly code = 'OVER_SYNC_LIMIT';
}

/**
 * `jsonData` as a thread is to be given it, after the one check that stays on this thread: that it is there.
 * Its nesting and size are checked on the thread, before it is parsed (checkJsonLimits): a linear pass, but
 * over the text of a 50 MB upload still hundreds of milliseconds (docs/security.md, "Nothing of one request
 * blocks the others").
 */
export function payloadSource(jsonData: unknown): PayloadSource {
  if (typeof jsonData !== 'string') {
    if (jsonData === undefined || jsonData === null)
      throw new InvalidInputError('the jsonData field is required');
    return { payload: jsonData };
  }
  if (jsonData.trim() === '') throw new InvalidInputError('the jsonData field is required');
  return { payloadText: jsonData };
}

/** The request's uploads within the configured count and size. */
export function checkUploads(deps: ServiceDeps, input: GenerationRequest): void {
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
}

/**
 * The request as the thread read it, with the slide limits checked; templates the request names may be missing
 * from `files` (a stored template fills them in). `mode` decides whether the synchronous slide ceiling applies.
 */
export function preparedRequest(
  deps: ServiceDeps,
  input: GenerationRequest,
  source: PayloadSource,
  facts: PayloadFacts,
  mode: 'sync' | 'async',
): PreparedRequest {
  const files = filesByName(input.files);
  const slideCount = countRequestedSlides(facts, files);
  checkSlideLimits(deps.settings.limits, slideCount, mode);
  return { source, facts, warnings: facts.warnings, files, slideCount };
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
  return prepared.facts.templates.filter(
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
    const unavailable = await fetchRemoteFiles(deps.fetcher, prepared.facts.urls, prepared.files, {
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
    ...prepared.source,
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
