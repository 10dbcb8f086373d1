/** The worker-thread pool: the GenerationPool contract on real threads, plus what only threads can show. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
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

describe('worker-thread pool, when threads die', () => {
  // Stand-in threads that speak the pool's protocol: these tests are about the pool, not about generation.
  const answering = `
    const { parentPort } = require('node:worker_threads');
    parentPort.on('message', (m) => {
      if (m.payload === 'crash') process.exit(7);
      parentPort.postMessage({ id: m.id, ok: true, kind: 'generate',
        result: { bytes: new Uint8Array([1]), slideCount: 1, warnings: [], fileName: 'x.pptx' } });
    });`;

  it('fails the task of a thread that dies, and the next task runs on its replacement', async () => {
    const pool = new WorkerThreadPool(1, () => new Worker(answering, { eval: true }));
    try {
      await expect(pool.generate({ payload: 'crash', files: new Map() })).rejects.toThrow(
        /stopped unexpectedly: exit code 7/,
      );
      await expect(pool.generate({ payload: 'fine', files: new Map() })).resolves.toMatchObject({
        slideCount: 1,
      });
    } finally {
      await pool.close();
    }
  });

  it('fails waiting tasks instead of hanging when no thread can start', async () => {
    const pool = new WorkerThreadPool(1, () => new Worker('process.exit(3)', { eval: true }));
    try {
      const outcomes = await Promise.allSettled(
        [1, 2, 3].map(() => pool.generate({ payload: 'any', files: new Map() })),
      );
      expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected']);
      const reasons = outcomes.map((o) => String((o as PromiseRejectedResult).reason));
      expect(reasons.some((r) => /cannot start/.test(r))).toBe(true);
    } finally {
      await pool.close();
    }
  });
});
