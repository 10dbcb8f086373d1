/**
 * Endpoint 2: generate synchronously. Quota is reserved first, settled on success (written with the next
 * usage flush: usage-writer.ts), released on any failure. Continuation slides of long tables (known once the
 * deck is built) are reserved then, on top: a deck they do not fit is refused with a 429 like any other. The
 * deck is written to a scratch file as it is built and streamed to the client from there (deck-content.ts).
 * A client that goes away stops the work where it is (downloads, the wait for a thread, the generation itself)
 * and the request ends with ClientGoneError: nothing is charged, nothing is built for nobody. An account runs
 * at most DECKFORGE_SYNC_GENERATIONS_PER_ACCOUNT generations at once (`gate`); its others wait their turn.
 */
import { rm } from 'node:fs/promises';
import { EngineError, slideCountText } from '../engine/index.js';
import { scratchFile, temporaryContent } from './deck-content.js';
import type { AccountGate } from './account-gate.js';
import type { Account, GeneratedDeck, GenerationRequest } from './deckforge-service.js';
import { ClientGoneError, InvalidInputError } from './errors.js';
import { fetchRequestUrls, generationTask, prepareRequest, type FetchedUrls } from './generation-input.js';
import { FetchError, GenerationCancelledError } from './ports/index.js';
import { runGeneration } from './run-generation.js';
import type { ServiceDeps } from './service-deps.js';
import { reserveContinuationSlides, reserveSlides } from './slide-quota.js';

export async function generateNow(
  deps: ServiceDeps,
  account: Account,
  input: GenerationRequest,
  gate: AccountGate,
): Promise<GeneratedDeck> {
  const prepared = prepareRequest(deps, input, 'sync');
  const reservationId = await reserveSlides(deps, account, prepared.slideCount, null);
  const file = scratchFile(deps.settings.scratchDir);
  const { signal } = input;
  let fetched: FetchedUrls | null = null;
  try {
    try {
      fetched = await fetchRequestUrls(deps, prepared, signal);
    } catch (error) {
      if (signal?.aborted) throw new ClientGoneError();
      if (error instanceof FetchError) throw new InvalidInputError(error.message);
      throw error;
    }
    const leave = await gate.enter(account.id, signal).catch(() => {
      throw new ClientGoneError(); // only the signal rejects the wait
    });
    let result;
    try {
      if (signal?.aborted) throw new ClientGoneError();
      const task = generationTask(deps, prepared, fetched, deps.settings.limits.syncMaxSlides);
      result = await runGeneration(deps, task, file, signal).catch((error: unknown) => {
        if (error instanceof GenerationCancelledError) throw new ClientGoneError();
        throw withAsyncAdvice(error, deps.settings.limits);
      });
    } finally {
      leave();
    }
    // Slides a long table continued on count too; when they do not fit the allowance, the deck is not given.
    const extra = result.slideCount - prepared.slideCount;
    if (extra > 0) {
      const extraId = await reserveContinuationSlides(deps, account, extra, prepared.slideCount);
      deps.usage.settle(extraId, extra, deps.clock.now());
    }
    deps.usage.settle(reservationId, Math.min(result.slideCount, prepared.slideCount), deps.clock.now());
    return {
      content: temporaryContent(file, result.byteLength),
      fileName: result.fileName,
      slideCount: result.slideCount,
      warnings: result.warnings, // the engine repeats the payload parse warnings itself
    };
  } catch (error) {
    await rm(file, { force: true });
    await deps.ledger.release(reservationId);
    throw error;
  } finally {
    await fetched?.discard();
  }
}

/**
 * Long tables continued past the synchronous slide limit: the message says the asynchronous endpoint takes
 * more, when it does. (The engine only knows the number it was given.)
 */
function withAsyncAdvice(error: unknown, limits: ServiceDeps['settings']['limits']): unknown {
  const { syncMaxSlides, maxSlidesPerRequest } = limits;
  const overSyncLimit =
    error instanceof EngineError &&
    error.code === 'LIMIT_EXCEEDED' &&
    error.message.includes(`more than ${slideCountText(syncMaxSlides)}`);
  if (!overSyncLimit || syncMaxSlides >= maxSlidesPerRequest) return error;
  const message = error.path ? error.message.slice(error.path.length + 2) : error.message;
  return new EngineError(
    'LIMIT_EXCEEDED',
    `${message}; synchronous generation makes at most ${slideCountText(syncMaxSlides)}, ` +
      `POST /v2.0/generator/create-async up to ${maxSlidesPerRequest}`,
    error.path,
  );
}
