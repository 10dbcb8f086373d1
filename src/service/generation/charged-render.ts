/**
 * One deck rendered for an account and charged as `POST /v1.0/render` charges it (docs/previews.md, "What it
 * costs"): refused at once, with nothing reserved, when this server cannot render; the deck read first (a file
 * that is not a .pptx is the 400 a template would get); its visible slides checked against the per-request limit
 * and reserved; the pages made settled once the answer is ready; everything given back when any step fails.
 */
import { rm, writeFile } from 'node:fs/promises';
import { slideCountText, type InspectResult } from '../../engine/index.js';
import type { Account, UploadedFile } from '../deckforge-service.js';
import { InvalidInputError } from '../errors.js';
import type { ServiceDeps } from '../service-deps.js';
import { reserveSlides } from '../usage/slide-quota.js';
import { scratchFile } from './deck-content.js';
import { renderDeck, requireRenderer, type RenderedFiles } from './render-deck.js';

export interface ChargedRenderAsk {
  pdf: boolean;
  pngWidth: number | null;
  signal?: AbortSignal | undefined;
}

/**
 * Renders `deck` and hands the files to `answer`, with the indexes of the slides the pages are of (the visible
 * ones: hidden slides get no page). `answer` owns the files once it returns (it discards them, or hands that on).
 */
export async function chargedRender<T>(
  deps: ServiceDeps,
  account: Account,
  deck: UploadedFile,
  ask: ChargedRenderAsk,
  answer: (rendered: RenderedFiles, visibleSlides: number[]) => Promise<T>,
  /** The inspect result of `deck.bytes`, when the caller has it already: the deck is not read a second time. */
  known?: InspectResult,
): Promise<T> {
  await requireRenderer(deps);
  // EngineError (400) for what is not a readable .pptx
  const inspected = known ?? (await deps.pool.inspect(deck.bytes));
  const visibleSlides = inspected.slides.filter((slide) => !slide.hidden).map((slide) => slide.index);
  const visible = visibleSlides.length;
  const { maxSlidesPerRequest } = deps.settings.limits;
  if (visible === 0) throw new InvalidInputError(`files: "${deck.name}" has no visible slide to render`);
  if (visible > maxSlidesPerRequest) {
    throw new InvalidInputError(
      `files: "${deck.name}" has ${slideCountText(visible)}; a render takes at most ${slideCountText(maxSlidesPerRequest)}`,
    );
  }
  const reservationId = await reserveSlides(deps, account, visible, null);
  const deckFile = scratchFile(deps.settings.scratchDir);
  let rendered: RenderedFiles | null = null;
  try {
    await writeFile(deckFile, deck.bytes);
    rendered = await renderDeck(deps, {
      accountId: account.id,
      deckFile,
      pdf: ask.pdf,
      pngWidth: ask.pngWidth,
      signal: ask.signal,
    });
    const result = await answer(rendered, visibleSlides);
    deps.usage.settle(reservationId, Math.min(rendered.pageCount, visible), deps.clock.now());
    return result;
  } catch (error) {
    await rendered?.discard();
    await deps.ledger.release(reservationId);
    throw error;
  } finally {
    await rm(deckFile, { force: true });
  }
}
