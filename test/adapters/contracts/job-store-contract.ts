/**
 * JobStore and JobQueue contracts. `describeJobStoreContract` checks the records alone; `describeJobContract`'s
 * `make(now)` builds both on fresh storage with a controllable clock (ms);
 * `restart()` simulates the process dying and a new one opening the same storage: it must not lose queued jobs,
 * and a job that was claimed (running) when it died must come back (requeued) or be abandoned, never stuck.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { JobQueue, JobRecord, JobStore } from '../../../src/service/ports/index.js';

export interface JobHarness {
  jobs: JobStore;
  queue: JobQueue;
  /** Closes this handle ("the crash") and opens the same storage again. */
  restart(): Promise<{ jobs: JobStore; queue: JobQueue }>;
  /** Another consumer of the same queue, as a second worker process would open it. */
  consumer(): JobQueue;
  close(): Promise<void>;
}

export interface ManualTime {
  now: number;
}

export function jobRecord(id: string, overrides: Partial<JobRecord> = {}): JobRecord {
  return {
    id,
    accountId: 'acct-1',
    state: 'QUEUED',
    createdAt: '2026-11-21T10:00:00.000Z',
    updatedAt: '2026-11-21T10:00:00.000Z',
    expiresAt: '2026-11-22T10:00:00.000Z',
    inputKey: `jobs/${id}/input.bin`,
    reservationId: `r-${id}`,
    errorMessage: null,
    warnings: [],
    resultKey: null,
    resultFileName: null,
    slideCount: null,
    ...overrides,
  };
}

export interface JobStoreHarness {
  jobs: JobStore;
  close(): Promise<void>;
}

/** The JobStore alone: every adapter of it, whichever queue runs beside it. */
export function describeJobStoreContract(name: string, make: () => Promise<JobStoreHarness>): void {
  describe(`JobStore contract: ${name}`, () => {
    let harness: JobStoreHarness | null = null;
    const open = async (): Promise<JobStoreHarness> => (harness = await make());
    const at = new Date('2026-11-21T10:00:05.000Z');
    afterEach(async () => {
      await harness?.close();
      harness = null;
    });

    it('records the progress of a PROCESSING job only', async () => {
      const { jobs } = await open();
      await jobs.create(jobRecord('p1'));
      expect((await jobs.get('p1'))?.progress ?? null).toBeNull();
      await jobs.setProgress('p1', { slidesDone: 1, slidesTotal: 9, pagesRendered: null });
      expect((await jobs.get('p1'))?.progress ?? null).toBeNull(); // still QUEUED
      await jobs.markProcessing('p1', at);
      await jobs.setProgress('p1', { slidesDone: 4, slidesTotal: 9, pagesRendered: null });
      expect((await jobs.get('p1'))?.progress).toEqual({
        slidesDone: 4,
        slidesTotal: 9,
        pagesRendered: null,
      });
      await jobs.setProgress('p1', { slidesDone: 9, slidesTotal: 9, pagesRendered: 3 });
      expect((await jobs.get('p1'))?.progress).toEqual({ slidesDone: 9, slidesTotal: 9, pagesRendered: 3 });
    });

    it('walks QUEUED → PROCESSING → SUCCEEDED and refuses moves from the wrong state', async () => {
      const { jobs } = await open();
      await jobs.create(jobRecord('j1'));
      expect(
        await jobs.markSucceeded(
          'j1',
          { resultKey: 'k', resultFileName: 'a.pptx', slideCount: 1, warnings: [], warningCount: 0 },
          at,
        ),
      ).toBe(false);
      expect(await jobs.markProcessing('j1', at)).toBe(true);
      expect(await jobs.markProcessing('j1', at)).toBe(false);
      const warnings = [{ path: 'presentation.slides[0]', message: 'shape "X" not found' }];
      expect(
        await jobs.markSucceeded(
          'j1',
          // The first of 1 200 warnings, as run-job.ts keeps them.
          {
            resultKey: 'jobs/j1/result.pptx',
            resultFileName: 'Q3.pptx',
            slideCount: 3,
            warnings,
            warningCount: 1200,
          },
          at,
        ),
      ).toBe(true);
      const done = await jobs.get('j1');
      expect(done).toMatchObject({
        state: 'SUCCEEDED',
        resultKey: 'jobs/j1/result.pptx',
        resultFileName: 'Q3.pptx',
        slideCount: 3,
        warnings,
        warningCount: 1200,
      });
      expect(done?.updatedAt).toBe(at.toISOString());
      expect(await jobs.markFailed('j1', 'late', at)).toBe(false); // final states stay final
    });

    it('fails a job with its message, from PROCESSING or QUEUED', async () => {
      const { jobs } = await open();
      await jobs.create(jobRecord('j1'));
      await jobs.create(jobRecord('j2'));
      await jobs.markProcessing('j1', at);
      expect(await jobs.markFailed('j1', 'slide 3: no shape named "Title 1"', at)).toBe(true);
      expect(await jobs.markFailed('j2', 'interrupted twice', at)).toBe(true);
      expect((await jobs.get('j1'))?.errorMessage).toBe('slide 3: no shape named "Title 1"');
      expect(await jobs.countByState()).toEqual({ QUEUED: 0, PROCESSING: 0, SUCCEEDED: 0, FAILED: 2 });
    });

    it('lists expired jobs oldest first and deletes them', async () => {
      const { jobs } = await open();
      await jobs.create(jobRecord('old', { expiresAt: '2026-11-20T09:00:00.000Z' }));
      await jobs.create(jobRecord('older', { expiresAt: '2026-11-20T08:00:00.000Z' }));
      await jobs.create(jobRecord('fresh', { expiresAt: '2026-11-22T10:00:00.000Z' }));
      const expired = await jobs.listExpired(new Date('2026-11-21T00:00:00.000Z'), 10);
      expect(expired.map((j) => j.id)).toEqual(['older', 'old']);
      expect(await jobs.delete('old')).toBe(true);
      expect(await jobs.get('old')).toBeNull();
      expect(await jobs.delete('old')).toBe(false);
    });

    it("lists an account's jobs most recent first, never another account's, at most the limit", async () => {
      const { jobs } = await open();
      await jobs.create(jobRecord('first', { createdAt: '2026-11-21T09:00:00.000Z' }));
      await jobs.create(jobRecord('theirs', { accountId: 'acct-2', createdAt: '2026-11-21T09:30:00.000Z' }));
      await jobs.create(jobRecord('third', { createdAt: '2026-11-21T11:00:00.000Z' }));
      await jobs.create(jobRecord('second', { createdAt: '2026-11-21T10:00:00.000Z' }));
      await jobs.markProcessing('second', at);
      const listed = await jobs.listByAccount('acct-1', 10);
      expect(listed.map((j) => j.id)).toEqual(['third', 'second', 'first']);
      expect(listed[1]).toMatchObject({ state: 'PROCESSING', updatedAt: at.toISOString() });
      expect((await jobs.listByAccount('acct-1', 2)).map((j) => j.id)).toEqual(['third', 'second']);
      expect((await jobs.listByAccount('acct-2', 10)).map((j) => j.id)).toEqual(['theirs']);
      expect(await jobs.listByAccount('nobody', 10)).toEqual([]);
    });
  });
}

/** The JobQueue with the JobStore it reads accounts from (fair claims), across restarts of the process. */
export function describeJobContract(name: string, make: (time: ManualTime) => Promise<JobHarness>): void {
  describe(`JobQueue contract: ${name}`, () => {
    let harness: JobHarness | null = null;
    const time: ManualTime = { now: Date.parse('2026-11-21T10:00:00.000Z') };
    const open = async (): Promise<JobHarness> => (harness = await make(time));
    afterEach(async () => {
      await harness?.close();
      harness = null;
    });

    it('hands out queued jobs in order, one claim each, and forgets acknowledged ones', async () => {
      const { queue } = await open();
      for (const id of ['a', 'b', 'c']) await queue.enqueue(id);
      expect(await queue.depth()).toBe(3);
      const claims = await Promise.all([queue.claim(30_000), queue.claim(30_000)]);
      expect(claims).toMatchObject([
        { jobId: 'a', attempt: 1 },
        { jobId: 'b', attempt: 1 },
      ]);
      expect(await queue.depth()).toBe(1);
      await queue.ack('a');
      expect(await queue.claim(30_000)).toMatchObject({ jobId: 'c', attempt: 1 });
      expect(await queue.claim(30_000)).toBeNull();
      await queue.remove('b');
      expect(await queue.recoverInterrupted(2)).toEqual({ requeued: [], abandoned: [] });
    });

    it('hands out the oldest job of the account holding the fewest claims, never every claim to one account', async () => {
      const { jobs, queue } = await open();
      const submitted: [string, string][] = [
        ['a1', 'account-a'],
        ['a2', 'account-a'],
        ['a3', 'account-a'],
        ['b1', 'account-b'],
      ];
      for (const [id, accountId] of submitted) {
        await jobs.create({ ...jobRecord(id), accountId });
        await queue.enqueue(id);
      }
      expect(await queue.claim(30_000, 2)).toEqual({ jobId: 'a1', attempt: 1, accountId: 'account-a' });
      // a2 is older, but account-a already holds a claim and account-b none.
      expect(await queue.claim(30_000, 2)).toEqual({ jobId: 'b1', attempt: 1, accountId: 'account-b' });
      expect(await queue.claim(30_000, 2)).toMatchObject({ jobId: 'a2' });
      // account-a holds 2 claims, the most it may: a3 waits although nothing else does.
      expect(await queue.claim(30_000, 2)).toBeNull();
      await queue.ack('a1');
      expect(await queue.claim(30_000, 2)).toMatchObject({ jobId: 'a3' });
    });

    it('caps an account per consumer: each keeps room for other accounts, one account alone keeps all of them busy', async () => {
      const { jobs, queue, consumer } = await open();
      const other = consumer();
      for (const id of ['a1', 'a2', 'a3', 'a4', 'a5']) {
        await jobs.create({ ...jobRecord(id), accountId: 'account-a' });
        await queue.enqueue(id);
      }
      expect(await queue.claim(30_000, 2)).toMatchObject({ jobId: 'a1' });
      expect(await queue.claim(30_000, 2)).toMatchObject({ jobId: 'a2' });
      expect(await queue.claim(30_000, 2)).toBeNull(); // this consumer's room for other accounts
      expect(await other.claim(30_000, 2)).toMatchObject({ jobId: 'a3' });
      expect(await other.claim(30_000, 2)).toMatchObject({ jobId: 'a4' });
      expect(await other.claim(30_000, 2)).toBeNull();
      await jobs.create({ ...jobRecord('b1'), accountId: 'account-b' });
      await queue.enqueue('b1');
      expect(await other.claim(30_000, 2)).toMatchObject({ jobId: 'b1', accountId: 'account-b' });
      expect(await queue.depth()).toBe(1); // a5, set aside and still waiting
    });

    it('survives a restart: queued jobs are still there', async () => {
      const h = await open();
      await h.jobs.create(jobRecord('j1'));
      await h.queue.enqueue('j1');
      const after = await h.restart();
      expect((await after.jobs.get('j1'))?.state).toBe('QUEUED');
      expect(await after.queue.claim(30_000)).toMatchObject({ jobId: 'j1', attempt: 1 });
    });

    it('a job running when the process died is retried once, then abandoned: never stuck', async () => {
      const h = await open();
      await h.queue.enqueue('j1');
      expect(await h.queue.claim(30_000)).toMatchObject({ jobId: 'j1', attempt: 1 });
      let { queue } = await h.restart(); // crash mid-job
      time.now += 31_000; // at the latest when the lease is over (an adapter may know sooner)
      expect(await queue.recoverInterrupted(2)).toEqual({ requeued: ['j1'], abandoned: [] });
      expect(await queue.claim(30_000)).toMatchObject({ jobId: 'j1', attempt: 2 });
      ({ queue } = await h.restart()); // crash again during the retry
      time.now += 31_000;
      expect(await queue.recoverInterrupted(2)).toEqual({ requeued: [], abandoned: ['j1'] });
      expect(await queue.claim(30_000)).toBeNull();
      expect(await queue.depth()).toBe(0);
    });

    it('a live consumer keeps its claim while it renews the lease', async () => {
      const { queue } = await open();
      await queue.enqueue('j1');
      await queue.claim(30_000);
      time.now += 20_000;
      await queue.renew('j1', 30_000);
      time.now += 20_000;
      expect(await queue.recoverInterrupted(2)).toEqual({ requeued: [], abandoned: [] });
      time.now += 20_000; // no renewal for 40 s: the lease is over
      expect(await queue.recoverInterrupted(2)).toEqual({ requeued: ['j1'], abandoned: [] });
    });
  });
}
