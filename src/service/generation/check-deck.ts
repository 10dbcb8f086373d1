/**
 * `generate_deck` with `dry_run: true` (docs/mcp.md): everything generation would say of a request — its 400s,
 * and the warnings of the deck it would build (unknown shapes, overflowing text, tags, pictures) — without
 * producing or charging anything. The deck is built as generate-now.ts builds it (same limits, same per-account
 * gate, the URLs fetched within the same allowance) into a scratch file that is removed at once; no slide is
 * reserved.
 */
import type { Warning } from '../../engine/index.js';
import type { Account, GenerationRequest } from '../deckforge-service.js';
import { ClientGoneError, InvalidInputError } from '../errors.js';
import { FetchError, GenerationCancelledError } from '../ports/index.js';
import type { ServiceDeps } from '../service-deps.js';
import { prepareWithStoredTemplates } from './stored-template-resolution.js';
import type { AccountGate } from './account-gate.js';
import { removeScratchFile, scratchFile } from './deck-content.js';
import { fetchRequestUrls, generationTask } from './generation-input.js';
import { runGeneration } from './run-generation.js';

/** A dry run stays small in memory: a deck up to this size is never written to a file at all. */
const DECK_IN_MEMORY_BYTES = 1024 * 1024;

export async function checkDeck(
  deps: ServiceDeps,
  account: Account,
  input: GenerationRequest,
  gate: AccountGate,
): Promise<{ slideCount: number; warnings: Warning[] }> {
  // Checked against the larger, asynchronous limit: generate_deck queues what the synchronous one refuses.
  const prepared = await prepareWithStoredTemplates(deps, account, input, 'async');
  const { signal } = input;
  const fetched = await fetchRequestUrls(deps, prepared, signal).catch((error: unknown) => {
    if (error instanceof FetchError) throw new InvalidInputError(error.message);
    throw error;
  });
  const file = scratchFile(deps.settings.scratchDir);
  try {
    const leave = await gate.enter(account.id, signal).catch(() => {
      throw new ClientGoneError();
    });
    try {
      const task = generationTask(deps, prepared, fetched, deps.settings.limits.maxSlidesPerRequest);
      const result = await runGeneration(deps, task, file, signal, DECK_IN_MEMORY_BYTES).catch(
        (error: unknown) => {
          if (error instanceof GenerationCancelledError) throw new ClientGoneError();
          throw error;
        },
      );
      return { slideCount: result.slideCount, warnings: result.warnings };
    } finally {
      leave();
    }
  } finally {
    await removeScratchFile(file);
    await fetched.discard();
  }
}
