/**
 * The worker-thread pool's memory budget: a deck that needs more than the budget fails with an
 * EngineError naming it, and the pool goes on serving; a thread that ran out of memory is a deck too large,
 * not a broken installation, however many in a row.
 */
import { expect, it } from 'vitest';
import { EngineError } from '../../../src/engine/index.js';
import { WorkerThreadPool } from '../../../src/adapters/generation-threads/worker-thread-pool.js';
import { everySlideChanged, heavyTemplate } from '../../support/decks/heavy-template.js';
import { titleDeck } from '../contracts/generation-pool-contract.js';
import { describeCorpus } from '../../support/corpus/corpus.js';
import { layoutsTemplate } from '../../support/decks/layouts-template.js';

describeCorpus('worker-thread pool with a 64 MB generation budget', () => {
  it('fails each deck over the budget with the budget message, and runs the next deck', async () => {
    const pool = new WorkerThreadPool(1, undefined, { memoryBudgetMb: 64 });
    try {
      const heavy = () =>
        pool.generate({
          payload: everySlideChanged('refactor.pptx'),
          files: new Map([['refactor.pptx', heavyTemplate()]]),
        });
      const small = () =>
        pool.generate({
          payload: titleDeck(2),
          files: new Map([['layouts.pptx', layoutsTemplate()]]),
        });
      // Three fresh threads in a row end out of memory, before any has answered, while a small deck waits.
      const outcomes = await Promise.allSettled([heavy(), heavy(), heavy(), small()]);
      for (const outcome of outcomes.slice(0, 3)) {
        const reason = (outcome as PromiseRejectedResult).reason as EngineError;
        expect(reason).toBeInstanceOf(EngineError);
        expect(reason.code).toBe('LIMIT_EXCEEDED');
        expect(reason.message).toMatch(/\(64 MB, DECKFORGE_GENERATION_MEMORY_MB\)/);
      }
      expect(outcomes[3]).toMatchObject({ status: 'fulfilled', value: { slideCount: 2 } });
    } finally {
      await pool.close();
    }
  });
});
