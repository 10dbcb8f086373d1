/**
 * A generation thread's image conversion process dies with the thread: libvips' work there is out of
 * terminate()'s reach, so the pool kills the process the thread reported, when the task passes its time
 * budget and when the pool closes (SIGTERM). The stand-in thread starts a process that ignores everything
 * (`sleep`) and then spins, so that only the pool can end it.
 */
import { execFileSync } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { GenerationPoolClosedError, GenerationTimeoutError } from '../../../src/service/ports/index.js';
import { WorkerThreadPool } from '../../../src/adapters/generation-threads/worker-thread-pool.js';

const STAND_IN = `
  const { parentPort } = require('node:worker_threads');
  const { spawn } = require('node:child_process');
  parentPort.on('message', (m) => {
    parentPort.postMessage({ id: m.id, started: true });
    const child = spawn('sleep', ['60'], { stdio: 'ignore' });
    parentPort.postMessage({ converterPid: child.pid });
    const until = Date.now() + 60000;
    while (Date.now() < until) {}
  });`;

let pool: WorkerThreadPool | null = null;
afterEach(async () => pool?.close());

function sleepers(): number[] {
  // Children of this process running `sleep 60`: the stand-in's conversion processes.
  const out = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' });
  return out
    .split('\n')
    .filter((line) => /\bsleep 60\b/.test(line))
    .map((line) => Number(line.trim().split(/\s+/)[0]));
}

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

describe('conversion process of a generation thread', () => {
  it('is killed when its task passes the time budget', async () => {
    pool = new WorkerThreadPool(1, () => new Worker(STAND_IN, { eval: true }), {
      taskTimeoutMs: 1000,
      loadImageLibraryFirst: false,
    });
    const outcome = pool.generate({ payload: {}, files: new Map() });
    expect(await until(() => sleepers().length === 1, 5000)).toBe(true);
    await expect(outcome).rejects.toBeInstanceOf(GenerationTimeoutError);
    expect(await until(() => sleepers().length === 0, 1000)).toBe(true);
  }, 15_000);

  it('is killed when the pool closes', async () => {
    pool = new WorkerThreadPool(1, () => new Worker(STAND_IN, { eval: true }), {
      loadImageLibraryFirst: false,
    });
    const outcome = pool.generate({ payload: {}, files: new Map() });
    expect(await until(() => sleepers().length === 1, 5000)).toBe(true);
    const closedOutcome = expect(outcome).rejects.toBeInstanceOf(GenerationPoolClosedError);
    await pool.close();
    await closedOutcome;
    expect(await until(() => sleepers().length === 0, 1000)).toBe(true);
  }, 15_000);
});
