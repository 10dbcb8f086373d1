/**
 * How DECKFORGE_TEMPLATE_CACHE_MB is shared out in one process (docs/configuration.md): a sixteenth, at most
 * 16 MB, for inspect results kept on the main thread (service/templates/inspect-results.ts), the rest in equal
 * parts for the generation threads' parsed-template caches, since each thread opens the templates it uses itself
 * and keeps them in its own heap. 0 turns both off.
 */
const MB = 2 ** 20;
const MAX_INSPECT_RESULTS_BYTES = 16 * MB;

export interface TemplateCacheBudget {
  /** Bytes of each generation thread's parsed-template cache. */
  perThreadBytes: number;
  /** Bytes of the inspect results kept by content hash. */
  inspectResultsBytes: number;
}

export function templateCacheBudget(templateCacheMb: number, threads: number): TemplateCacheBudget {
  const total = templateCacheMb * MB;
  const inspectResultsBytes = Math.min(MAX_INSPECT_RESULTS_BYTES, Math.floor(total / 16));
  return {
    perThreadBytes: Math.floor((total - inspectResultsBytes) / Math.max(1, threads)),
    inspectResultsBytes,
  };
}
