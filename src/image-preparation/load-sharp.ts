/**
 * sharp, loaded on first need. A module of its own so that a thread which only hosts generation threads (the
 * worker pool, the CLI's main thread) can load libvips without loading the engine that convert-image uses.
 */
import { createRequire } from 'node:module';

export type Sharp = typeof import('sharp').default;

let sharpModule: Sharp | null = null;

/**
 * A process that runs conversions in worker threads loads sharp once on the main thread first, so that a worker
 * thread ending does not unload libvips under the others (sharp's install notes, "worker threads").
 */
export function loadSharp(): Sharp {
  if (!sharpModule) {
    sharpModule = createRequire(import.meta.url)('sharp') as Sharp;
    // Conversions run once per request: libvips' operation cache would only hold memory.
    sharpModule.cache(false);
  }
  return sharpModule;
}
