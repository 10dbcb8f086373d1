/**
 * Endpoint 2: generate synchronously. Quota is reserved first, settled on success (written with the next
 * usage flush: usage-writer.ts), released on any failure.
 */
import { performance } from 'node:perf_hooks';
import type { Account, GeneratedDeck, GenerationRequest } from './deckforge-service.js';
import { InvalidInputError } from './errors.js';
import { fetchRemoteFiles, prepareRequest } from './generation-input.js';
import { FetchError } from './ports/index.js';
import type { ServiceDeps } from './service-deps.js';
import { reserveSlides } from './slide-quota.js';

export async function generateNow(
  deps: ServiceDeps,
  account: Account,
  input: GenerationRequest,
): Promise<GeneratedDeck> {
  const prepared = prepareRequest(deps, input, 'sync');
  const reservationId = await reserveSlides(deps, account, prepared.slideCount, null);
  try {
    try {
      await fetchRemoteFiles(deps, prepared);
    } catch (error) {
      if (error instanceof FetchError) throw new InvalidInputError(error.message);
      throw error;
    }
    const started = performance.now();
    const result = await deps.pool.generate({ payload: prepared.payload, files: prepared.files });
    deps.counters.decks += 1;
    deps.counters.slides += result.slideCount;
    deps.counters.seconds += (performance.now() - started) / 1000;
    deps.usage.settle(reservationId, result.slideCount);
    return {
      bytes: result.bytes,
      fileName: result.fileName,
      slideCount: result.slideCount,
      warnings: result.warnings, // the engine repeats the payload parse warnings itself
    };
  } catch (error) {
    await deps.ledger.release(reservationId);
    throw error;
  }
}
