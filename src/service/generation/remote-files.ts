/**
 * The URLs one request needs, fetched through the guarded fetcher (the engine never does network I/O): each URL
 * once however often the payload uses it, a bounded number at once. A template that cannot be fetched fails the
 * request; a picture that cannot be fetched is handed on as unavailable, with the reason, so that the engine
 * refuses it naming the shape that uses it (and a bare string that only looks like a URL stays text).
 * Shared by the service's use cases and `deckforge generate`.
 *
 * The service also bounds what one request (or job) may make the server hold: all its downloads
 * share one deadline and one byte allowance, a picture is cut off as soon as it passes the picture limit, and
 * each body goes to a file in the request's own folder rather than into memory. Passing the allowance fails
 * the whole request: it is a property of the request, not of one picture.
 */
import { join } from 'node:path';
import type { WantedUrl } from '../../engine/index.js';
import { FetchBudgetError, FetchError, type FetchLimits, type TemplateFetcher } from '../ports/index.js';

export interface RemoteFileOptions {
  /** URLs fetched at once. */
  concurrency: number;
  /** Shared by every download: the deadline, the byte allowance, the cancel signal. */
  limits?: Omit<FetchLimits, 'maxBytes'>;
  /** The most bytes one picture may have (its download stops when more arrive). */
  pictureMaxBytes?: number;
  /**
   * Write each body to a file in the folder `directory()` gives (made on the first download, so a request that
   * names no URL makes none) and record it in `paths` (by URL) instead of `files`.
   */
  toDisk?: { directory: () => Promise<string>; paths: Map<string, string> };
}

/**
 * Fetches `urls` (the engine's urlsToFetch) that are not among `files`, adds the bytes to `files` under their
 * URLs and returns the picture URLs that could not be fetched, with the reason. Throws FetchError for a template
 * URL.
 */
export async function fetchRemoteFiles(
  fetcher: TemplateFetcher,
  urls: readonly WantedUrl[],
  files: Map<string, Uint8Array>,
  options: RemoteFileOptions,
): Promise<Map<string, string>> {
  const wanted = urls.filter(({ url }) => !files.has(url));
  const unavailable = new Map<string, string>();
  const { toDisk } = options;
  // A request that fails stops its other downloads too, rather than leaving them running in the background.
  const stop = new AbortController();
  const outer = options.limits?.signal;
  const signal = outer ? AbortSignal.any([outer, stop.signal]) : stop.signal;
  const work = async ({ url, template }: { url: string; template: boolean }, index: number) => {
    const limits: FetchLimits = { ...options.limits, signal };
    if (!template && options.pictureMaxBytes !== undefined) limits.maxBytes = options.pictureMaxBytes;
    try {
      if (toDisk) {
        const file = join(await toDisk.directory(), `${index}.bin`);
        await fetcher.fetchToFile(url, file, limits);
        toDisk.paths.set(url, file);
      } else {
        files.set(url, await fetcher.fetch(url, limits));
      }
    } catch (error) {
      if (!(error instanceof FetchError) || error instanceof FetchBudgetError) throw error;
      if (template) throw new FetchError(url, `template ${error.message}`);
      unavailable.set(url, `picture ${error.message}`);
    }
  };
  try {
    await forEachBounded(wanted, options.concurrency, work);
  } catch (error) {
    stop.abort();
    throw error;
  }
  return unavailable;
}

/** Runs `work` over `items`, at most `limit` at once; the first error stops new work and is thrown. */
async function forEachBounded<T>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failed = false;
  const lane = async (): Promise<void> => {
    while (!failed && next < items.length) {
      const index = next++;
      try {
        await work(items[index] as T, index);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), items.length) }, lane));
}
