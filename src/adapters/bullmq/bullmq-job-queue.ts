/**
 * The job queue on Redis through BullMQ, shared by every API node and worker. The port's claim/lease model maps
 * onto BullMQ's own mechanisms, with no queue of our own on Redis:
 *
 * - enqueue = `Queue.add` with the job id as BullMQ's id (a second add of the same id is a no-op) and the account
 *   in the job's data; `attempts` = the runs a job gets when runs are interrupted.
 * - claim = a Worker fetching manually (`getNextJob(token)`, no processor), then `extendLock` to the lease asked
 *   for; renew = `extendLock`; ack and remove = `moveToCompleted` (the job is removed on completion: its outcome
 *   lives in the JobStore).
 * - a killed worker: its lock runs out and BullMQ's stalled-job checker (`startStalledCheckTimer`) moves the job
 *   back to wait, up to `attempts - 1` times; beyond, BullMQ marks it for failing at the next fetch, and the claim
 *   that fetches it fails it. A lease that ran out on the service clock (a
 *   consumer that stopped renewing, or a closed one) is taken over with the token stored beside it and failed
 *   with `moveToFailed`, so BullMQ's attempts decide: back to wait, or failed once they are used up. Jobs in
 *   BullMQ's failed set are the abandoned ones; `recoverInterrupted` removes each (only one caller wins the
 *   removal) and reports it, so the consumer marks it FAILED and gives its slides back.
 *
 * Fairness across accounts (the port's `maxPerAccount`): an account's n-th outstanding job is added with BullMQ
 * priority n, so waiting jobs are handed out round-robin across accounts (the first job of every account, then
 * the second, …; FIFO within a priority). A fetched job whose account already holds `maxPerAccount` claims is
 * put straight back with `moveToWait` (it keeps its priority) and the claim looks further, a bounded number of
 * times. The cap counts this consumer's claims: every worker keeps room for other accounts, and one account alone
 * can still keep every worker of the cluster busy.
 *
 * Durability: a job acknowledged with 202 is in Redis when `add` returns; surviving a Redis restart needs
 * `appendonly yes` with `appendfsync always` (docs/operations.md).
 */
import { randomUUID } from 'node:crypto';
import { Job, Queue, UnrecoverableError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { ClaimedJob, Clock, JobQueue, RecoveredJobs } from '../../service/ports/index.js';
import { onRedis } from '../redis/redis-unavailable.js';

const QUEUE_NAME = 'deckforge-jobs';
const JOB_NAME = 'generate';
/** BullMQ's highest priority number. */
const LOWEST_PRIORITY = 2_097_152;
/** Jobs a claim looks at (and puts back) before it gives up until the next poll. */
const CLAIM_SCAN = 16;

interface JobData {
  /** null when the job record was not found at enqueue: the job counts as an account of its own. */
  accountId: string | null;
}

interface Lease {
  /** Service clock, ms. */
  until: number;
  token: string;
  account: string;
}

export interface BullMqJobQueueOptions {
  /** Commands (enqueue, counts, leases): fails fast when Redis is away. */
  connection: Redis;
  /** The worker's connection (BullMQ wants `maxRetriesPerRequest: null` there). */
  workerConnection: Redis;
  clock: Clock;
  /** Looks up the account that submitted a job (from the JobStore), for fairness. */
  accountOf(jobId: string): Promise<string | null>;
  /** BullMQ key prefix; several deployments (or test runs) share one Redis under different prefixes. */
  prefix?: string;
  /** Runs a job gets when runs are interrupted (default 2: retried once); recoverInterrupted must be given the same. */
  maxAttempts?: number;
  /** Lock duration before the first renewal and stalled-check interval, default 30 s. */
  lockMs?: number;
}

export class BullMqJobQueue implements JobQueue {
  private readonly queue: Queue;
  private readonly worker: Worker;
  private readonly redis: Redis;
  private readonly leasesKey: string;
  private readonly countersKey: string;
  private readonly instance = randomUUID();
  private readonly held = new Map<string, { job: Job; token: string; account: string }>();
  private readonly stalled: string[] = [];
  private readonly maxAttempts: number;
  private claiming: Promise<unknown> = Promise.resolve();
  private sequence = 0;

  constructor(private readonly options: BullMqJobQueueOptions) {
    const prefix = options.prefix ?? 'deckforge';
    const lockMs = options.lockMs ?? 30_000;
    this.maxAttempts = options.maxAttempts ?? 2;
    this.redis = options.connection;
    this.leasesKey = `${prefix}:${QUEUE_NAME}:deckforge-leases`;
    this.countersKey = `${prefix}:${QUEUE_NAME}:deckforge-account-jobs`;
    this.queue = new Queue(QUEUE_NAME, { connection: options.connection, prefix });
    this.worker = new Worker(QUEUE_NAME, null, {
      connection: options.workerConnection,
      prefix,
      autorun: false,
      lockDuration: lockMs,
      stalledInterval: lockMs,
      maxStalledCount: this.maxAttempts - 1,
    });
    this.worker.on('stalled', (jobId: string) => this.stalled.push(jobId));
    // Errors of the background stalled checker (Redis away) are retried by BullMQ; they must not crash the process.
    this.worker.on('error', () => undefined);
    this.queue.on('error', () => undefined);
    // BullMQ's stalled-job checker: a killed worker's jobs come back once their lock runs out.
    this.worker.startStalledCheckTimer().catch(() => undefined);
  }

  async enqueue(jobId: string): Promise<void> {
    const accountId = await this.options.accountOf(jobId);
    await onRedis(() => this.add(jobId, accountId));
  }

  private async add(jobId: string, accountId: string | null): Promise<void> {
    const account = accountId ?? `job:${jobId}`;
    const outstanding = await this.redis.hincrby(this.countersKey, account, 1);
    const data: JobData = { accountId };
    try {
      await this.queue.add(JOB_NAME, data, {
        jobId,
        priority: Math.min(LOWEST_PRIORITY, Math.max(1, outstanding)),
        attempts: this.maxAttempts,
        removeOnComplete: true,
        removeOnFail: false,
      });
    } catch (error) {
      // Not queued: the account's count goes back, or its later jobs would wait behind a job that is not there.
      await this.redis.hincrby(this.countersKey, account, -1).catch(() => undefined);
      throw error;
    }
  }

  async claim(leaseMs: number, maxPerAccount = Infinity): Promise<ClaimedJob | null> {
    // One claim at a time per instance: the cap check and the fetch belong together.
    const next = this.claiming.then(() => onRedis(() => this.claimNow(leaseMs, maxPerAccount)));
    this.claiming = next.catch(() => undefined);
    return next;
  }

  private async claimNow(leaseMs: number, maxPerAccount: number): Promise<ClaimedJob | null> {
    const setAside: { job: Job; token: string }[] = [];
    try {
      const held = this.claimsByAccount();
      for (let i = 0; i < CLAIM_SCAN; i++) {
        const token = `${this.instance}:${++this.sequence}`;
        const job = (await this.worker.getNextJob(token, { block: false })) as Job | undefined;
        if (!job?.id) return null;
        if (job.deferredFailure) {
          // Stalled more often than its attempts allow: BullMQ defers the failure to the next fetch, as its own
          // processJob does; failed, it is reported as abandoned by recoverInterrupted.
          await job.moveToFailed(new UnrecoverableError(job.deferredFailure), token, false);
          continue;
        }
        const data = job.data as JobData;
        const account = data.accountId ?? `job:${job.id}`;
        if ((held.get(account) ?? 0) >= maxPerAccount) {
          setAside.push({ job, token });
          continue;
        }
        await job.extendLock(token, leaseMs);
        const lease: Lease = { until: this.options.clock.now().getTime() + leaseMs, token, account };
        await this.redis.hset(this.leasesKey, job.id, JSON.stringify(lease));
        this.held.set(job.id, { job, token, account });
        return {
          jobId: job.id,
          attempt: job.attemptsMade + job.stalledCounter + 1,
          accountId: data.accountId,
        };
      }
      return null;
    } finally {
      for (const { job, token } of setAside) await job.moveToWait(token);
    }
  }

  async renew(jobId: string, leaseMs: number): Promise<void> {
    const mine = this.held.get(jobId);
    const lease = await this.lease(jobId);
    if (!mine || !lease || lease.token !== mine.token) return;
    await mine.job.extendLock(mine.token, leaseMs);
    lease.until = this.options.clock.now().getTime() + leaseMs;
    await this.redis.hset(this.leasesKey, jobId, JSON.stringify(lease));
  }

  async ack(jobId: string): Promise<void> {
    await this.finish(jobId);
  }

  async remove(jobId: string): Promise<void> {
    await this.finish(jobId);
  }

  /** Completes a job this instance holds, or removes one waiting; either way it leaves the queue. */
  private async finish(jobId: string): Promise<void> {
    const mine = this.held.get(jobId);
    this.held.delete(jobId);
    const lease = await this.lease(jobId);
    if (mine && lease?.token === mine.token) {
      await mine.job.moveToCompleted(null, mine.token, false);
      await this.forget(jobId, lease.account);
      return;
    }
    const job = await Job.fromId(this.queue, jobId);
    if (!job) return;
    if ((await this.queue.remove(jobId)) === 1) await this.forget(jobId, accountKey(job));
  }

  async recoverInterrupted(_maxAttempts: number): Promise<RecoveredJobs> {
    const result: RecoveredJobs = { requeued: this.stalled.splice(0), abandoned: [] };
    const now = this.options.clock.now().getTime();
    const leases = await this.redis.hgetall(this.leasesKey);
    for (const [jobId, text] of Object.entries(leases)) {
      const lease = JSON.parse(text) as Lease;
      if (lease.until >= now) continue;
      const job = await Job.fromId(this.queue, jobId);
      if (!job || (await job.getState()) !== 'active') {
        await this.redis.hdel(this.leasesKey, jobId);
        continue;
      }
      try {
        // The stored token still holds the lock (a consumer that died or stopped renewing): BullMQ retries the
        // job while attempts remain, else moves it to failed, which the loop below reports as abandoned.
        await job.moveToFailed(new Error('interrupted: its lease ran out'), lease.token, false);
        this.held.delete(jobId);
        await this.redis.hdel(this.leasesKey, jobId);
        if ((await job.getState()) !== 'failed') result.requeued.push(jobId);
      } catch {
        // The lock is already gone (it ran out in Redis too): BullMQ's stalled checker takes the job back.
        await this.redis.hdel(this.leasesKey, jobId);
      }
    }
    for (const job of await this.queue.getFailed()) {
      if (!job.id) continue;
      if ((await this.queue.remove(job.id)) !== 1) continue; // another consumer reported it
      await this.forget(job.id, accountKey(job));
      result.abandoned.push(job.id);
    }
    return result;
  }

  async depth(): Promise<number> {
    const counts = await onRedis(() => this.queue.getJobCounts('wait', 'prioritized', 'delayed'));
    return Object.values(counts).reduce((sum, n) => sum + n, 0);
  }

  /** Jobs by BullMQ state, for /metrics. */
  async counts(): Promise<Record<string, number>> {
    return this.queue.getJobCounts('wait', 'prioritized', 'active', 'delayed', 'failed');
  }

  /** Whether Redis answers, for /healthz. */
  async ping(): Promise<boolean> {
    try {
      return (await this.redis.ping()) === 'PONG';
    } catch {
      return false;
    }
  }

  /**
   * This consumer stops: the leases of the claims it still holds end now, so the next `recoverInterrupted` of
   * any consumer takes them over at once instead of after their lease.
   */
  async close(): Promise<void> {
    for (const [jobId, mine] of this.held) {
      const lease = await this.lease(jobId).catch(() => null);
      if (lease?.token === mine.token) {
        lease.until = 0;
        await this.redis.hset(this.leasesKey, jobId, JSON.stringify(lease)).catch(() => undefined);
      }
    }
    this.held.clear();
    await this.worker.close(true);
    await this.queue.close();
  }

  /** This consumer's claims per account. */
  private claimsByAccount(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const { account } of this.held.values()) counts.set(account, (counts.get(account) ?? 0) + 1);
    return counts;
  }

  private async lease(jobId: string): Promise<Lease | null> {
    const text = await this.redis.hget(this.leasesKey, jobId);
    return text ? (JSON.parse(text) as Lease) : null;
  }

  /** The job left the queue: its lease record goes, and its account has one job fewer outstanding. */
  private async forget(jobId: string, account: string): Promise<void> {
    await this.redis.hdel(this.leasesKey, jobId);
    const left = await this.redis.hincrby(this.countersKey, account, -1);
    if (left <= 0) await this.redis.hdel(this.countersKey, account);
  }
}

function accountKey(job: Job): string {
  return (job.data as JobData).accountId ?? `job:${job.id ?? ''}`;
}
