/**
 * The settings a generation itself runs under: its memory budget (the V8 heap of the worker thread that runs
 * it, docs/large-decks.md) and the caps on one picture. A file of its own so that `deckforge generate`, which
 * needs nothing else unless its payload names a URL, reads them without loading the rest of the configuration:
 * the plans' schema library alone costs ~14 MB of memory, a tenth of what a 20 000-slide deck may use.
 */
import { integer, type Env } from './env-values.js';

export const GENERATION_MEMORY_VARIABLE = 'DECKFORGE_GENERATION_MEMORY_MB';

export interface GenerationSettings {
  /** DECKFORGE_GENERATION_MEMORY_MB, default 512. */
  memoryMb: number;
  /** DECKFORGE_MAX_IMAGE_MEGAPIXELS, default 50: width × height of any one picture, checked on its header. */
  maxImagePixels: number;
  /** DECKFORGE_MAX_IMAGE_MB, default 25: bytes of any one picture (uploaded, fetched or in a data: URI). */
  maxImageBytes: number;
}

/**
 * Twice what the corpus's heaviest slide needs when every copy of it is changed (1.65 MB of XML: ~250 MB of
 * heap at its peak). A budget far above need also costs: V8 grows a heap more eagerly the larger its limit
 * (20 000 text slides peaked 6–8 MB higher at 1024 MB than at 512).
 */
const DEFAULT_MEMORY_MB = 512;

export function loadGenerationSettings(env: Env = process.env): GenerationSettings {
  return {
    memoryMb: integer(env, GENERATION_MEMORY_VARIABLE, DEFAULT_MEMORY_MB, 64, 65_536),
    maxImagePixels: integer(env, 'DECKFORGE_MAX_IMAGE_MEGAPIXELS', 50, 1, 1000) * 1_000_000,
    maxImageBytes: integer(env, 'DECKFORGE_MAX_IMAGE_MB', 25, 1, 4096) * 1024 * 1024,
  };
}
