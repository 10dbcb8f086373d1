/** The worker-thread pool: the GenerationPool contract on real threads, plus what only threads can show. */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { strFromU8, unzipSync } from 'fflate';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { inspect } from '../../../src/engine/index.js';
import { WorkerThreadPool } from '../../../src/adapters/generation-threads/worker-thread-pool.js';
import { expectValidPptx } from '../../support/checks/expect-valid-pptx.js';
import { layoutsTemplate } from '../../support/decks/layouts-template.js';
import { describeGenerationPoolContract, titleDeck } from '../contracts/generation-pool-contract.js';

describeGenerationPoolContract('worker threads', async () => new WorkerThreadPool(2));

/** Two decks with the same parts and bytes, except the random values of their slides' p14:creationId. */
function sameBesidesCreationIds(a: Uint8Array, b: Uint8Array): boolean {
  const [partsA, partsB] = [unzipSync(a), unzipSync(b)];
  const normal = (bytes: Uint8Array | undefined): string =>
    strFromU8(bytes ?? new Uint8Array()).replace(/(<p14:creationId [^>]*val=")\d+"/g, '$1"');
  const names = Object.keys(partsA);
  return (
    names.length === Object.keys(partsB).length && names.every((n) => normal(partsA[n]) === normal(partsB[n]))
  );
}

describe('worker-thread pool', () => {
  it('keeps the event loop free while large decks are generated', async () => {
    const pool = new WorkerThreadPool(1);
    try {
      const template = layoutsTemplate();
      const task = () => ({ payload: titleDeck(500), files: new Map([['layouts.pptx', template.slice()]]) });
      await pool.generate({ payload: titleDeck(1), files: new Map([['layouts.pptx', template.slice()]]) }); // warm up
      const lag = monitorEventLoopDelay({ resolution: 10 });
      lag.enable();
      // Work measured by its own duration, not a fixed figure: large decks one after another for at least a
      // second, whatever the machine's speed or load.
      const idleBefore = performance.eventLoopUtilization();
      const started = performance.now();
      const durations: number[] = [];
      const decks: Uint8Array[] = [];
      do {
        const t0 = performance.now();
        decks.push((await pool.generate(task())).bytes);
        durations.push(performance.now() - t0);
      } while (performance.now() - started < 1000);
      const loop = performance.eventLoopUtilization(idleBefore);
      lag.disable();
      const worstLag = lag.max / 1e6 - 10; // the histogram holds whole intervals: 10 ms plus the delay
      // Generating on this thread would keep the loop busy all along and hold a tick for a whole generation.
      expect(
        loop.utilization,
        `event loop busy ${(loop.utilization * 100).toFixed(0)}% of the time`,
      ).toBeLessThan(0.5);
      // A tick held for a quarter of all that work would mean the loop did the work; a stray pause (a collection
      // after a large result arrives, a busy machine) is far shorter.
      const total = durations.reduce((a, b) => a + b, 0);
      expect(
        worstLag,
        `worst tick delay ${worstLag.toFixed(0)} ms over ${durations.length} generations of ${total.toFixed(0)} ms`,
      ).toBeLessThan(total / 4);
      // The same input gives the same deck (up to each clone's fresh random p14:creationId): one check covers all.
      for (const deck of decks.slice(1)) expect(sameBesidesCreationIds(deck, decks[0]!)).toBe(true);
      expect(inspect(decks[0]!).slides).toHaveLength(500);
      await expectValidPptx(decks[0]!, template);
    } finally {
      await pool.close();
    }
  });

  it('moves uploaded bytes to the worker instead of copying them', async () => {
    const pool = new WorkerThreadPool(1);
    try {
      const template = layoutsTemplate();
      const owned = template.slice(); // its own ArrayBuffer: transferable
      const result = await pool.generate({
        payload: titleDeck(1),
        files: new Map([['layouts.pptx', owned]]),
      });
      expect(owned.byteLength).toBe(0); // detached: it went to the worker
      await expectValidPptx(result.bytes, template);
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
