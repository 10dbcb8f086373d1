/**
 * The BullMQ job queue: the JobQueue contract (unchanged, as for the in-process SQLite queue), fairness across
 * two nodes, a worker killed mid-job (BullMQ's stalled-job recovery), and a Redis restart that must lose no job.
 * Jobs records live in SQLite beside it (the queue reads accounts from them, as it will from PostgreSQL).
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { BullMqJobQueue } from '../../../src/adapters/bullmq/bullmq-job-queue.js';
import { openRedis } from '../../../src/adapters/redis/redis-connections.js';
import { databasePath, openDatabase } from '../../../src/adapters/sqlite/database.js';
import { SqliteJobStore } from '../../../src/adapters/sqlite/sqlite-job-store.js';
import {
  StoreUnavailableError,
  type Clock,
  type JobStore,
  type RecoveredJobs,
} from '../../../src/service/ports/index.js';
import {
  deleteKeys,
  REDIS_URL_VARIABLE,
  redisServerInstalled,
  startPrivateRedis,
  testPrefix,
  testRedisUrl,
} from '../../support/servers/redis-server.js';
import { describeJobContract, jobRecord } from '../contracts/job-store-contract.js';
import { tempDir } from '../../support/servers/temp-dir.js';

const redisUrl = await testRedisUrl();
const prefixes: string[] = [];
afterAll(async () => {
  if (redisUrl) for (const prefix of prefixes) await deleteKeys(redisUrl, prefix);
});

function openQueue(url: string, prefix: string, clock: Clock, jobs: JobStore | null, lockMs = 30_000) {
  return new BullMqJobQueue({
    connection: openRedis(url, 'commands'),
    workerConnection: openRedis(url, 'worker'),
    clock,
    accountOf: async (id) => (jobs ? ((await jobs.get(id))?.accountId ?? null) : null),
    prefix,
    lockMs,
  });
}

/** Jobs in a temp SQLite file, queues on Redis under a prefix of their own; every queue opened is closed. */
function openStores(url: string, clock: Clock) {
  const dir = tempDir();
  const db = openDatabase(databasePath(dir.path));
  const jobs = new SqliteJobStore(db);
  const prefix = testPrefix();
  prefixes.push(prefix);
  const opened: BullMqJobQueue[] = [];
  const queue = (lockMs?: number) => {
    const q = openQueue(url, prefix, clock, jobs, lockMs);
    opened.push(q);
    return q;
  };
  return {
    jobs,
    prefix,
    queue,
    async close() {
      for (const q of opened) await q.close();
      db.close();
      dir.remove();
    },
  };
}

if (redisUrl) {
  describeJobContract('BullMQ on Redis', async (time) => {
    const stores = openStores(redisUrl, { now: () => new Date(time.now) });
    return {
      jobs: stores.jobs,
      queue: stores.queue(),
      // A crash: the old queue is not closed (its connections stay until the end of the test), a new one opens.
      restart: async () => ({ jobs: stores.jobs, queue: stores.queue() }),
      consumer: () => stores.queue(),
      close: stores.close,
    };
  });
} else {
  describe.skip(`JobQueue contract: BullMQ on Redis (no Redis: set ${REDIS_URL_VARIABLE})`, () => {
    it('runs with Redis', () => undefined);
  });
}

const describeRedis = redisUrl ? describe : describe.skip;

describeRedis('BullMQ job queue', () => {
  const url = redisUrl ?? '';
  const clock: Clock = { now: () => new Date() };

  it('serves another account first across two nodes, and caps an account on each node', async () => {
    const stores = openStores(url, clock);
    try {
      const [nodeA, nodeB] = [stores.queue(), stores.queue()];
      for (let i = 1; i <= 5; i++) {
        await stores.jobs.create({ ...jobRecord(`big-${i}`), accountId: 'big' });
        await nodeA.enqueue(`big-${i}`);
      }
      await stores.jobs.create({ ...jobRecord('small-1'), accountId: 'small' });
      await nodeB.enqueue('small-1'); // submitted last, on the other node
      expect(await nodeA.claim(30_000, 2)).toMatchObject({ jobId: 'big-1', accountId: 'big' });
      // The small account's only job comes before the big account's second.
      expect(await nodeB.claim(30_000, 2)).toMatchObject({ jobId: 'small-1', accountId: 'small' });
      expect(await nodeB.claim(30_000, 2)).toMatchObject({ jobId: 'big-2' });
      expect(await nodeA.claim(30_000, 2)).toMatchObject({ jobId: 'big-3' });
      // "big" holds two claims on each node: neither node may take a third of its jobs.
      expect(await nodeA.claim(30_000, 2)).toBeNull();
      expect(await nodeB.claim(30_000, 1)).toBeNull();
      expect(await nodeA.depth()).toBe(2); // set aside and put back, not lost
      await nodeA.ack('big-1');
      expect(await nodeA.claim(30_000, 2)).toMatchObject({ jobId: 'big-4', attempt: 1 });
    } finally {
      await stores.close();
    }
  });

  it("a job BullMQ refuses to add is not counted: the account's next job is not put behind it", async () => {
    const stores = openStores(url, clock);
    try {
      const queue = stores.queue();
      // BullMQ refuses a job id with a colon; the account's count was raised before the add and must go back.
      await stores.jobs.create({ ...jobRecord('refused:id'), accountId: 'first' });
      await expect(queue.enqueue('refused:id')).rejects.toThrow(/cannot contain :/);
      await stores.jobs.create({ ...jobRecord('first-1'), accountId: 'first' });
      await stores.jobs.create({ ...jobRecord('second-1'), accountId: 'second' });
      await queue.enqueue('first-1');
      await queue.enqueue('second-1');
      // Both are their account's first outstanding job: first in, first out.
      expect(await queue.claim(30_000)).toMatchObject({ jobId: 'first-1', accountId: 'first' });
      expect(await queue.claim(30_000)).toMatchObject({ jobId: 'second-1', accountId: 'second' });
    } finally {
      await stores.close();
    }
  });

  it('a worker killed with SIGKILL mid-job: BullMQ finds the job stalled and another worker runs it; twice, and it is abandoned', async () => {
    // The survivor's clock is an hour behind, so no lease of ours ever looks over to it: only BullMQ's own
    // stalled-job checker (in the survivor's Worker, every lockMs) can bring the job back.
    const stores = openStores(url, { now: () => new Date(Date.now() - 3600_000) });
    const lockMs = 1_000;
    /** A worker process claims a job and is killed (SIGKILL) holding it; what it claimed. */
    const claimAndDie = async (): Promise<unknown> => {
      const child = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          'test/adapters/bullmq/fixtures/bullmq-claim-process.ts',
          url,
          stores.prefix,
          String(lockMs),
        ],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      const line = await new Promise<string>((resolve) =>
        createInterface({ input: child.stdout! }).once('line', resolve),
      );
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
      return JSON.parse(line);
    };
    /** recoverInterrupted until `done` says so (at most 10 s). */
    const recoverUntil = async (done: (r: RecoveredJobs) => boolean): Promise<RecoveredJobs> => {
      const started = Date.now();
      for (;;) {
        const recovered = await survivor.recoverInterrupted(2);
        if (done(recovered) || Date.now() - started > 10_000) return recovered;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    };
    const survivor = stores.queue(lockMs);
    try {
      await survivor.enqueue('j1');
      expect(await claimAndDie()).toMatchObject({ jobId: 'j1', attempt: 1 });
      expect(await survivor.claim(lockMs)).toBeNull(); // still locked by the dead worker
      // Its lock runs out after 1 s; the stalled checker moves it back to wait and reports it here.
      expect(await recoverUntil((r) => r.requeued.length > 0)).toEqual({ requeued: ['j1'], abandoned: [] });
      expect(await claimAndDie()).toMatchObject({ jobId: 'j1', attempt: 2 });
      // Stalled a second time, past its attempts: BullMQ marks it failed-on-next-fetch, the next claim fails it
      // instead of running it, and the survivor reports it abandoned.
      expect(await recoverUntil((r) => r.requeued.length > 0)).toEqual({ requeued: ['j1'], abandoned: [] });
      expect(await survivor.claim(30_000)).toBeNull();
      expect(await survivor.recoverInterrupted(2)).toEqual({ requeued: [], abandoned: ['j1'] });
      expect(await survivor.claim(30_000)).toBeNull();
      expect(await survivor.depth()).toBe(0);
      expect(await survivor.recoverInterrupted(2)).toEqual({ requeued: [], abandoned: [] }); // reported once
    } finally {
      await stores.close();
    }
  }, 40_000);
});

const describeRestart = redisServerInstalled() ? describe : describe.skip;

describeRestart('BullMQ job queue on a Redis of its own (appendonly yes, appendfsync always)', () => {
  it('a Redis killed and restarted loses no acknowledged job; commands fail fast meanwhile, then recover', async () => {
    const redis = await startPrivateRedis();
    const clock: Clock = { now: () => new Date() };
    const prefix = testPrefix();
    const queue = openQueue(redis.url, prefix, clock, null);
    try {
      const ids = Array.from({ length: 20 }, (_, i) => `job-${i}`);
      for (const id of ids) await queue.enqueue(id); // each acknowledged once `enqueue` resolved
      await redis.kill(); // SIGKILL: nothing is saved beyond what the append-only file already holds
      const started = Date.now();
      await expect(queue.depth()).rejects.toBeInstanceOf(StoreUnavailableError);
      await expect(queue.enqueue('during-outage')).rejects.toThrow(/^Redis unavailable: /);
      expect(Date.now() - started).toBeLessThan(15_000);
      await redis.start();
      // The same queue object reconnects by itself.
      let depth = -1;
      for (let i = 0; i < 50 && depth !== ids.length; i++) {
        depth = await queue.depth().catch(() => -1);
        if (depth !== ids.length) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(depth).toBe(ids.length);
      const claimed: string[] = [];
      for (let c = await queue.claim(30_000); c; c = await queue.claim(30_000)) claimed.push(c.jobId);
      expect(claimed.sort()).toEqual([...ids].sort());
    } finally {
      await queue.close().catch(() => undefined);
      await redis.stop();
    }
  }, 60_000);
});
