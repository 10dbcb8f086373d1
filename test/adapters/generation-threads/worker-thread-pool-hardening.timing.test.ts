/**
 * The worker-thread pool under hostile work: a task that cannot be handed to a thread, a task that
 * never ends, a shutdown while threads are stuck. Stand-in threads speak the pool's protocol, so these tests are
 * about the pool, not about generation.
 */
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { GenerationPoolClosedError, GenerationTimeoutError } from '../../../src/service/ports/index.js';
import { WorkerThreadPool } from '../../../src/adapters/generation-threads/worker-thread-pool.js';

/** Answers every task at once, except `hang` (an endless loop: only terminate() stops it). */
const STAND_IN = `
  const { parentPort } = require('node:worker_threads');
  parentPort.on('message', (m) => {
    parentPort.postMessage({ id: m.id, started: true });
    if (m.payload === 'hang') for (;;) {}
    parentPort.postMessage({ id: m.id, ok: true, kind: 'generate',
      result: { bytes: new Uint8Array([1]), slideCount: 1, warnings: [], fileName: 'x.pptx' } });
  });`;
const standIn = () => new Worker(STAND_IN, { eval: true });

const task = (payload: unknown) => ({ payload, files: new Map<string, Uint8Array>() });

/** The promise's outcome, or 'pending' after `ms`: a hang fails the test quickly instead of at its timeout. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | 'pending'> {
  let timer: NodeJS.Timeout | undefined;
  const pending = new Promise<'pending'>((resolve) => (timer = setTimeout(() => resolve('pending'), ms)));
  try {
    return await Promise.race([promise, pending]);
  } finally {
    clearTimeout(timer);
  }
}

function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

describe('worker-thread pool, hostile work', () => {
  it('fails a task that cannot be handed to a thread, and the thread stays free for the next one', async () => {
    const pool = new WorkerThreadPool(1, standIn);
    try {
      // Structured cloning recurses: 100 000 nested arrays overflow the stack inside postMessage().
      await expect(pool.generate(task({ x: nested(100_000) }))).rejects.toThrow(RangeError);
      expect(pool.stats()).toMatchObject({ busy: 0, idle: 1, waiting: 0 });
      const next = await within(pool.generate(task('fine')), 10_000);
      expect(next).toMatchObject({ slideCount: 1 });
    } finally {
      await pool.close();
    }
  });

  it('stops a task past its time budget, replaces the thread, and runs the next task', async () => {
    const pool = new WorkerThreadPool(1, standIn, { taskTimeoutMs: 300 });
    try {
      const started = Date.now();
      const error = await pool.generate(task('hang')).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(GenerationTimeoutError);
      expect((error as GenerationTimeoutError).budgetMs).toBe(300);
      expect(Date.now() - started).toBeLessThan(5_000);
      const next = await within(pool.generate(task('fine')), 10_000);
      expect(next).toMatchObject({ slideCount: 1 });
    } finally {
      await pool.close();
    }
  });

  it('a stuck thread does not hold up tasks that waited behind it', async () => {
    const pool = new WorkerThreadPool(1, standIn, { taskTimeoutMs: 300 });
    try {
      const stuck = pool.generate(task('hang')).catch((e: unknown) => e);
      const queued = pool.generate(task('fine'));
      expect(pool.stats()).toMatchObject({ busy: 1, idle: 0, waiting: 1 });
      expect(await within(queued, 10_000)).toMatchObject({ slideCount: 1 });
      expect(await stuck).toBeInstanceOf(GenerationTimeoutError);
    } finally {
      await pool.close();
    }
  });

  it('reports busy and idle threads, and how long none has been free', async () => {
    let now = 1_000_000;
    const pool = new WorkerThreadPool(2, standIn, { now: () => now });
    try {
      expect(pool.stats()).toEqual({ size: 2, busy: 0, idle: 2, waiting: 0, saturatedMs: 0 });
      const first = pool.generate(task('hang')).catch((e: unknown) => e);
      expect(pool.stats()).toMatchObject({ busy: 1, idle: 1, saturatedMs: 0 });
      const second = pool.generate(task('hang')).catch((e: unknown) => e);
      pool.generate(task('fine')).catch(() => undefined);
      now += 45_000;
      expect(pool.stats()).toEqual({ size: 2, busy: 2, idle: 0, waiting: 1, saturatedMs: 45_000 });
      await pool.close();
      expect(await first).toBeInstanceOf(GenerationPoolClosedError);
      expect(await second).toBeInstanceOf(GenerationPoolClosedError);
    } finally {
      await pool.close();
    }
  });

  it('close() ends running and waiting tasks at once, even on threads stuck in a loop', async () => {
    const pool = new WorkerThreadPool(1, standIn); // no time budget: only close() can stop the thread
    const running = pool.generate(task('hang')).catch((e: unknown) => e);
    const waiting = pool.generate(task('fine')).catch((e: unknown) => e);
    const started = Date.now();
    await pool.close();
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await running).toBeInstanceOf(GenerationPoolClosedError);
    expect(await waiting).toBeInstanceOf(GenerationPoolClosedError);
  });
});
