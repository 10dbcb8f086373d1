/** The worker-thread pool: the GenerationPool contract on real threads, plus what only threads can show. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WorkerThreadPool } from '../../src/worker/worker-thread-pool.js';
import { CORPUS_DIR } from '../support/corpus.js';
import { describeGenerationPoolContract, titleDeck } from './contracts/generation-pool-contract.js';

describeGenerationPoolContract('worker threads', async () => new WorkerThreadPool(2));

describe('worker-thread pool', () => {
  it('keeps the event loop free while a large deck is generated', async () => {
    const pool = new WorkerThreadPool(1);
    try {
      const template = new Uint8Array(readFileSync(join(CORPUS_DIR, 'poi', 'layouts.pptx')));
      await pool.generate({ payload: titleDeck(1), files: new Map([['layouts.pptx', template.slice()]]) }); // warm up
      let worstLag = 0;
      let last = Date.now();
      const ticker = setInterval(() => {
        const now = Date.now();
        worstLag = Math.max(worstLag, now - last - 10);
        last = now;
      }, 10);
      const started = Date.now();
      const result = await pool.generate({
        payload: titleDeck(1500),
        files: new Map([['layouts.pptx', template]]),
      });
      const took = Date.now() - started;
      clearInterval(ticker);
      expect(result.slideCount).toBe(1500);
      expect(took).toBeGreaterThan(200); // real work happened…
      expect(worstLag).toBeLessThan(Math.max(100, took / 5)); // …and the loop kept ticking meanwhile
    } finally {
      await pool.close();
    }
  });

  it('moves uploaded bytes to the worker instead of copying them', async () => {
    const pool = new WorkerThreadPool(1);
    try {
      const template = new Uint8Array(readFileSync(join(CORPUS_DIR, 'poi', 'layouts.pptx')));
      const owned = template.slice(); // its own ArrayBuffer: transferable
      await pool.generate({ payload: titleDeck(1), files: new Map([['layouts.pptx', owned]]) });
      expect(owned.byteLength).toBe(0); // detached: it went to the worker
    } finally {
      await pool.close();
    }
  });

  it('refuses work after close', async () => {
    const pool = new WorkerThreadPool(1);
    await pool.close();
    await expect(pool.generate({ payload: titleDeck(1), files: new Map() })).rejects.toThrow(/closed/);
  });
});
