/**
 * Inspect results by the template's content hash (SHA-256), so `GET /v1.0/templates/{id}` and
 * `POST /v1.0/template/inspect` do not open the same bytes again (docs/configuration.md,
 * DECKFORGE_TEMPLATE_CACHE_MB). Bounded by the bytes the results hold, least recently used first out; a bound of
 * 0 keeps nothing. A result is shared by every caller that gets it: nobody may change it.
 */
import { createHash } from 'node:crypto';
import type { InspectResult } from '../engine/index.js';
import { GenerationTimeLimitError } from './errors.js';
import { GenerationTimeoutError, type GenerationPool } from './ports/index.js';

export class InspectResults {
  private readonly entries = new Map<string, { result: InspectResult; bytes: number }>();
  private total = 0;

  constructor(private readonly maxBytes: number) {}

  get(hash: string): InspectResult | undefined {
    const entry = this.entries.get(hash);
    if (!entry) return undefined;
    // Map keeps insertion order: re-inserting marks it most recently used.
    this.entries.delete(hash);
    this.entries.set(hash, entry);
    return entry.result;
  }

  remember(hash: string, result: InspectResult): void {
    if (this.entries.has(hash)) return;
    const bytes = heldBytes(result);
    if (bytes > this.maxBytes) return;
    this.entries.set(hash, { result, bytes });
    this.total += bytes;
    for (const [key, entry] of this.entries) {
      if (this.total <= this.maxBytes) break;
      this.entries.delete(key);
      this.total -= entry.bytes;
    }
  }

  /** Bytes the kept results hold (an estimate: heldBytes). */
  get heldBytes(): number {
    return this.total;
  }

  get size(): number {
    return this.entries.size;
  }
}

/** An estimate of a result's memory: its JSON text as UTF-16 (two bytes a character). */
function heldBytes(result: InspectResult): number {
  return JSON.stringify(result).length * 2;
}

export function sha256Of(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * The inspect result of the template whose content hash is `hash`: kept from an earlier call, or inspected on the
 * pool now (`bytes` is read only then). EngineError (400) for what cannot be used as a template.
 */
export async function inspectByHash(
  deps: { pool: GenerationPool; inspectResults: InspectResults },
  hash: string,
  bytes: () => Promise<Uint8Array> | Uint8Array,
): Promise<InspectResult> {
  const kept = deps.inspectResults.get(hash);
  if (kept) return kept;
  let result: InspectResult;
  try {
    result = await deps.pool.inspect(await bytes());
  } catch (error) {
    if (error instanceof GenerationTimeoutError) throw new GenerationTimeLimitError(error.budgetMs);
    throw error;
  }
  deps.inspectResults.remember(hash, result);
  return result;
}
