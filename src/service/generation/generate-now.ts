/**
 * `POST /v1.0/generator/create`: generate synchronously. Quota is reserved first, settled on success (written
 * with the next usage flush: usage-writer.ts), released on any failure. Continuation slides of long tables
 * (known once the deck is built) are reserved then, on top: a deck they do not fit is refused with a 429 like
 * any other. The deck is written to a scratch file as it is built and streamed to the client from there
 * (deck-content.ts), unless it is small enough to come back in memory (DECK_IN_MEMORY_BYTES). A client that
 * goes away stops the work where it is (downloads, the wait for a thread, the generation itself) and the
 * request ends with ClientGoneError: nothing is charged, nothing is built for nobody. An account runs at most
 * DECKFORGE_SYNC_GENERATIONS_PER_ACCOUNT generations at once (`gate`); its others wait their turn. With
 * `format=pdf` the deck is rendered before the slides are charged (render-deck.ts); a server that cannot
 * render refuses the request before anything is reserved.
 */
import { stat } from 'node:fs/promises';
import { EngineError, slideCountText, type Warning } from '../../engine/index.js';
import { heldContent, removeScratchFile, scratchFile, temporaryContent } from './deck-content.js';
import type { AccountGate } from './account-gate.js';
import type { Account, GeneratedDeck, GenerationRequest } from '../deckforge-service.js';
import { ClientGoneError, InvalidInputError } from '../errors.js';
import { generateOnce } from './idempotency.js';
import { fetchRequestUrls, generationTask, type FetchedUrls } from './generation-input.js';
import { DECK_ONLY } from './output-format.js';
import { fontWarnings, renderDeck, requireRenderer, withExtension } from './render-deck.js';
import { FetchError, GenerationCancelledError } from '../ports/index.js';
import { runGeneration } from './run-generation.js';
import type { ServiceDeps } from '../service-deps.js';
import { prepareWithStoredTemplates } from './stored-template-resolution.js';
import { reserveContinuationSlides, reserveSlides } from '../usage/slide-quota.js';

/**
 * A deck up to this size (a 10-slide deck of the sample template is 15 KB) comes back from the generation thread
 * in memory (transferred, not copied) and is answered from there in one write; a larger one goes through a
 * scratch file and is streamed, so it is never whole in this process's memory (docs/large-decks.md).
 */
const DECK_IN_MEMORY_BYTES = 128 * 1024;

/** generateNow, run once per Idempotency-Key when the request carries one (idempotency.ts). */
export function generateNowOnce(
  deps: ServiceDeps,
  account: Account,
  request: GenerationRequest,
  gate: AccountGate,
): Promise<GeneratedDeck> {
  const { idempotencyKey } = request;
  const run = (): Promise<GeneratedDeck> => generateNow(deps, account, request, gate);
  if (idempotencyKey === undefined) return run();
  return generateOnce(deps, account, { ...request, idempotencyKey }, run);
}

export async function generateNow(
  deps: ServiceDeps,
  account: Account,
  input: GenerationRequest,
  gate: AccountGate,
): Promise<GeneratedDeck> {
  const prepared = await prepareWithStoredTemplates(deps, account, input, 'sync');
  const asPdf = (input.output ?? DECK_ONLY).format === 'pdf';
  if (asPdf) await requireRenderer(deps);
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
      // Only a PDF needs the deck as a file (the renderer reads it); a small deck is answered from memory.
      const inMemory = asPdf ? undefined : DECK_IN_MEMORY_BYTES;
      result = await runGeneration(deps, task, file, signal, inMemory).catch((error: unknown) => {
        if (error instanceof GenerationCancelledError) throw new ClientGoneError();
        throw withAsyncAdvice(error, deps.settings.limits);
      });
    } finally {
      leave();
    }
    // Slides a long table continued on count too; when they do not fit the allowance, the deck is not given.
    const extra = result.slideCount - prepared.slideCount;
    const extraId =
      extra > 0 ? await reserveContinuationSlides(deps, account, extra, prepared.slideCount) : null;
    const pdf = asPdf ? await renderPdf(deps, account, file, signal, extraId) : null;
    if (extraId) deps.usage.settle(extraId, extra, deps.clock.now());
    deps.usage.settle(reservationId, Math.min(result.slideCount, prepared.slideCount), deps.clock.now());
    if (pdf) {
      await removeScratchFile(file);
      return {
        content: temporaryContent(pdf.file, pdf.byteLength, pdf.discard),
        format: 'pdf',
        fileName: withExtension(result.fileName, 'pdf'),
        slideCount: result.slideCount,
        warnings: [...result.warnings, ...pdf.warnings],
      };
    }
    return {
      content: 'bytes' in result ? heldContent(result.bytes) : temporaryContent(file, result.byteLength),
      format: 'pptx',
      fileName: result.fileName,
      slideCount: result.slideCount,
      warnings: result.warnings, // the engine repeats the payload parse warnings itself
    };
  } catch (error) {
    await removeScratchFile(file);
    await deps.ledger.release(reservationId);
    throw error;
  } finally {
    await fetched?.discard();
  }
}

/** The deck's PDF (format=pdf); a failed render gives back the continuation slides reserved before it. */
async function renderPdf(
  deps: ServiceDeps,
  account: Account,
  deckFile: string,
  signal: AbortSignal | undefined,
  extraId: string | null,
): Promise<{ file: string; byteLength: number; warnings: Warning[]; discard: () => Promise<void> }> {
  try {
    const rendered = await renderDeck(deps, {
      accountId: account.id,
      deckFile,
      pdf: true,
      pngWidth: null,
      signal,
    });
    if (rendered.pdfFile === null) {
      await rendered.discard();
      throw new Error('the renderer wrote no PDF although one was asked for');
    }
    const { size } = await stat(rendered.pdfFile);
    return {
      file: rendered.pdfFile,
      byteLength: size,
      warnings: fontWarnings(rendered),
      discard: rendered.discard,
    };
  } catch (error) {
    if (extraId) await deps.ledger.release(extraId);
    throw error;
  }
}

/**
 * A deck past the synchronous slide limit once its tables continued or its all_slides entries expanded (the
 * limit a synchronous generation gives the engine): the message says the asynchronous endpoint takes more, when
 * it does. (The engine only knows the number it was given.)
 */
function withAsyncAdvice(error: unknown, limits: ServiceDeps['settings']['limits']): unknown {
  const { syncMaxSlides, maxSlidesPerRequest } = limits;
  if (!(error instanceof EngineError) || error.code !== 'TOO_MANY_SLIDES') return error;
  if (syncMaxSlides >= maxSlidesPerRequest) return error;
  return new EngineError(
    'TOO_MANY_SLIDES',
    `${error.reason}; synchronous generation makes at most ${slideCountText(syncMaxSlides)}, ` +
      `POST /v2.0/generator/create-async up to ${maxSlidesPerRequest}`,
    error.path,
  );
}
