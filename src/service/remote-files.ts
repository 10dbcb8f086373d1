/**
 * The URLs one request needs, fetched through the guarded fetcher (the engine never does network I/O): each URL
 * once however often the payload uses it, a bounded number at once. A template that cannot be fetched fails the
 * request; a picture that cannot be fetched is handed on as unavailable, with the reason, so that the engine
 * refuses it naming the shape that uses it (and a bare string that only looks like a URL stays text).
 * Shared by the service's use cases and `deckforge generate`.
 */
import { isHttpUrl, pictureSourceUses, type DeckRequest } from '../engine/index.js';
import { FetchError, type TemplateFetcher } from './ports/index.js';

/** Text that happens to be a URL may be a picture: fetched when possible, at most this many per request. */
const MAX_BARE_STRING_URLS = 20;

export interface RemoteFileOptions {
  /** URLs fetched at once. */
  concurrency: number;
}

/**
 * Adds the fetched bytes to `files` under their URLs and returns the picture URLs that could not be fetched,
 * with the reason. Throws FetchError for a template URL.
 */
export async function fetchRemoteFiles(
  fetcher: TemplateFetcher,
  request: DeckRequest,
  files: Map<string, Uint8Array>,
  options: RemoteFileOptions,
): Promise<Map<string, string>> {
  const templates = new Set(
    usedTemplates(request)
      .map((t) => t.source)
      .filter(isHttpUrl),
  );
  const pictures = new Set<string>();
  const bareStrings = new Set<string>();
  for (const use of pictureSourceUses(request)) {
    if (!isHttpUrl(use.source) || templates.has(use.source)) continue;
    if (use.explicit) pictures.add(use.source);
    else if (!pictures.has(use.source)) bareStrings.add(use.source);
  }
  for (const url of pictures) bareStrings.delete(url);
  const wanted = [
    ...[...templates].map((url) => ({ url, template: true })),
    ...[...pictures, ...[...bareStrings].slice(0, MAX_BARE_STRING_URLS)].map((url) => ({
      url,
      template: false,
    })),
  ].filter(({ url }) => !files.has(url));
  const unavailable = new Map<string, string>();
  await forEachBounded(wanted, options.concurrency, async ({ url, template }) => {
    try {
      files.set(url, await fetcher.fetch(url));
    } catch (error) {
      if (!(error instanceof FetchError)) throw error;
      if (template) throw new FetchError(url, `template ${error.message}`);
      unavailable.set(url, `picture ${error.message}`);
    }
  });
  return unavailable;
}

/** The templates slides actually use (a `template_list` entry no slide picks is never opened by the engine). */
export function usedTemplates(request: DeckRequest): DeckRequest['templates'] {
  const used = new Set(request.slides.map((slide) => slide.templateId));
  return request.templates.filter((t) => t.id === null || used.has(t.id));
}

/** Runs `work` over `items`, at most `limit` at once; the first error stops new work and is thrown. */
async function forEachBounded<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failed = false;
  const lane = async (): Promise<void> => {
    while (!failed && next < items.length) {
      const item = items[next++] as T;
      try {
        await work(item);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), items.length) }, lane));
}
