/**
 * Jobs survive the process: a queued job runs after a restart, and a job that was PROCESSING when its process was
 * killed (SIGKILL, mid-generation) is retried once, then FAILED with a reason if the retry dies too. Never stuck.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { databasePath, openDatabase } from '../../../src/adapters/sqlite/database.js';
import { INTERRUPTED_MESSAGE } from '../../../src/service/jobs/run-job.js';
import { tempDir } from '../../support/servers/temp-dir.js';
import {
  deck,
  expectValidJobDeck,
  startHarness,
  upload,
  waitForJob,
  type Harness,
  type ManualClock,
} from '../service-harness.js';

const BIG_PLANS = [{ name: 'Big', allowedSlideCount: 100_000, requestsPerMinute: 1000 }];
const children: ChildProcess[] = [];
const dirs: { remove(): void }[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) dir.remove();
});

function jobState(dataDir: string, jobId: string): string | undefined {
  const db = openDatabase(databasePath(dataDir), { migrate: false });
  try {
    return (db.prepare('SELECT state FROM jobs WHERE id = ?').get(jobId) as { state: string } | undefined)
      ?.state;
  } finally {
    db.close();
  }
}

/** How many times the job has been claimed, while it is claimed (0 when waiting or gone). */
function runningAttempt(dataDir: string, jobId: string): number {
  const db = openDatabase(databasePath(dataDir), { migrate: false });
  try {
    const row = db
      .prepare('SELECT attempts FROM job_queue WHERE job_id = ? AND lease_until IS NOT NULL')
      .get(jobId) as { attempts: number } | undefined;
    return row?.attempts ?? 0;
  } finally {
    db.close();
  }
}

/**
 * Starts a consumer process on the harness's time, waits until it is PROCESSING the job, and kills it with
 * SIGKILL.
 */
async function killMidJob(
  dataDir: string,
  jobId: string,
  attempt: number,
  clock: ManualClock,
): Promise<void> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'test/service/fixtures/job-consumer-process.ts', dataDir, clock.now().toISOString()],
    {
      cwd: process.cwd(),
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  children.push(child);
  const deadline = Date.now() + 30_000;
  while (jobState(dataDir, jobId) !== 'PROCESSING' || runningAttempt(dataDir, jobId) !== attempt) {
    if (Date.now() > deadline) throw new Error('the consumer process never started the job');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  child.kill('SIGKILL');
  await new Promise((resolve) => child.once('exit', resolve));
}

async function submitBigJob(
  dataDir: string,
): Promise<{ jobId: string; h: Harness; user: Awaited<ReturnType<Harness['signUp']>> }> {
  // A runtime that only submits (no consumer), like an API node whose worker is elsewhere.
  const h = await startHarness({ dataDir, plans: BIG_PLANS, runtime: { consumeJobs: false } });
  const user = await h.signUp();
  const { jobId } = await h.service.submitJob(user.account, upload(deck(1500)));
  return { jobId, h, user };
}

describe('restart recovery', () => {
  it('a queued job runs after a restart', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const { jobId, h, user } = await submitBigJob(dir.path);
    await h.close();
    const restarted = await startHarness({ dataDir: dir.path, plans: BIG_PLANS, clock: h.clock });
    try {
      const done = await waitForJob(restarted.service, user.account, jobId, 120_000);
      expect(done.status).toBe('SUCCEEDED');
      await expectValidJobDeck(restarted.service, done);
    } finally {
      await restarted.close();
    }
  }, 150_000); // the wait for the job may take its full 120 s on a loaded machine

  it('a job killed mid-generation is retried and succeeds', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const { jobId, h, user } = await submitBigJob(dir.path);
    await killMidJob(dir.path, jobId, 1, h.clock);
    expect(jobState(dir.path, jobId)).toBe('PROCESSING');
    await h.close();
    const restarted = await startHarness({ dataDir: dir.path, plans: BIG_PLANS, clock: h.clock });
    try {
      const done = await waitForJob(restarted.service, user.account, jobId, 120_000);
      expect(done.status).toBe('SUCCEEDED');
      expect((await restarted.service.usage(user.account)).usedSlideCount).toBe(1500);
      await expectValidJobDeck(restarted.service, done);
    } finally {
      await restarted.close();
    }
  });

  it('a job whose retry is killed too ends FAILED with the reason and gives its slides back', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const { jobId, h, user } = await submitBigJob(dir.path);
    await killMidJob(dir.path, jobId, 1, h.clock);
    await killMidJob(dir.path, jobId, 2, h.clock); // the second process recovers it (attempt 2) and dies as well
    await h.close();
    const restarted = await startHarness({ dataDir: dir.path, plans: BIG_PLANS, clock: h.clock });
    try {
      const failed = await waitForJob(restarted.service, user.account, jobId, 30_000);
      expect(failed).toMatchObject({ status: 'FAILED', errorMessage: INTERRUPTED_MESSAGE, fileUrl: null });
      expect((await restarted.service.usage(user.account)).usedSlideCount).toBe(0);
      const big = await restarted.service.generateNow(user.account, upload(deck(2)));
      expect(big.slideCount).toBe(2);
    } finally {
      await restarted.close();
    }
  });
});
