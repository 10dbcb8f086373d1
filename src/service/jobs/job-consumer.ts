/**
 * The in-process queue consumer: generates up to `concurrency` jobs at once, polls the durable queue (a job
 * enqueued by another process is found within `pollMs`), renews each running job's lease, and recovers
 * interrupted jobs (retried once, then FAILED: never stuck) at start and every `recoverEveryMs`.
 *
 * Fair to every account. A job fetches its URLs before it takes a generation slot, so a job whose
 * picture server never answers holds no thread, only one of the few extra jobs held while fetching
 * (FETCHING_AHEAD). The queue hands out the oldest job of the account holding the fewest claims, and no account
 * may hold every claim, so another account's job is always taken next; the slots go to the account served
 * longest ago (fair-slots.ts). Another account's first job thus waits for at most the one job generating.
 */
import { FairSlots } from './fair-slots.js';
import { INTERRUPTED_MESSAGE, runJob } from './run-job.js';
import type { ServiceDeps } from '../service-deps.js';

/** Jobs held beyond the generating ones: fetching their URLs, or fetched and waiting for a slot. */
const FETCHING_AHEAD = 2;

export interface JobConsumerOptions {
  /** Jobs generating at once (each on a thread of the pool). */
  concurrency: number;
  pollMs?: number;
  leaseMs?: number;
  recoverEveryMs?: number;
  /** Attempts a job gets when runs are interrupted (default 2: retried once). */
  maxAttempts?: number;
}

export class JobConsumer {
  private running = 0;
  private stopped = true;
  private pollTimer: NodeJS.Timeout | null = null;
  private recoverTimer: NodeJS.Timeout | null = null;
  private filling = false;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly pollMs: number;
  private readonly leaseMs: number;
  private readonly recoverEveryMs: number;
  private readonly maxAttempts: number;
  private readonly slots: FairSlots;
  /** Aborted by `interrupt()`: running jobs stop their downloads and keep their claim. */
  private readonly halt = new AbortController();
  /** Jobs claimed at once, and the most one account may hold (one claim always stays for the others). */
  private readonly claims: number;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly options: JobConsumerOptions,
  ) {
    this.pollMs = options.pollMs ?? 500;
    this.leaseMs = options.leaseMs ?? 30_000;
    this.recoverEveryMs = options.recoverEveryMs ?? 10_000;
    this.maxAttempts = options.maxAttempts ?? 2;
    this.slots = new FairSlots(options.concurrency);
    this.claims = options.concurrency + FETCHING_AHEAD;
  }

  async start(): Promise<void> {
    if (!this.stopped) return;
    this.stopped = false;
    await this.recover();
    this.pollTimer = setInterval(() => this.kick(), this.pollMs);
    this.recoverTimer = setInterval(() => {
      this.recover().catch((error: unknown) => this.deps.logger.error({ err: error }, 'job recovery failed'));
    }, this.recoverEveryMs);
    this.pollTimer.unref();
    this.recoverTimer.unref();
    this.kick();
  }

  /** Looks for work now (called after a local submission). */
  kick(): void {
    if (this.stopped || this.filling) return;
    this.filling = true;
    this.fill()
      .catch((error: unknown) => this.deps.logger.error({ err: error }, 'job queue polling failed'))
      .finally(() => {
        this.filling = false;
      });
  }

  /** Stops taking jobs and waits for the running ones to finish. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.pollTimer) clearInterval(this.pollTimer);
    if (this.recoverTimer) clearInterval(this.recoverTimer);
    await Promise.allSettled([...this.inFlight]);
  }

  /**
   * Ends the running jobs' downloads now (a shutdown past its time limit): those jobs keep their claim and run
   * again at the next start, like the ones whose generation thread is closed.
   */
  interrupt(): void {
    this.stopped = true;
    this.halt.abort();
  }

  /** Interrupted claims: requeued ones go back to QUEUED, abandoned ones end FAILED and give their slides back. */
  async recover(): Promise<void> {
    const { requeued, abandoned } = await this.deps.queue.recoverInterrupted(this.maxAttempts);
    const now = this.deps.clock.now();
    for (const jobId of requeued) {
      await this.deps.jobs.markQueued(jobId, now);
      this.deps.logger.warn({ jobId }, 'interrupted job queued again');
    }
    for (const jobId of abandoned) {
      const job = await this.deps.jobs.get(jobId);
      if (!job) continue;
      await this.deps.jobs.markFailed(jobId, INTERRUPTED_MESSAGE, now);
      if (job.reservationId) await this.deps.ledger.release(job.reservationId);
      this.deps.logger.warn({ jobId }, 'interrupted job failed after its retry was interrupted too');
    }
  }

  private async fill(): Promise<void> {
    while (!this.stopped && this.running < this.claims) {
      const claimed = await this.deps.queue.claim(this.leaseMs, this.claims - 1);
      if (!claimed) return;
      this.running += 1;
      const renew = setInterval(
        () => {
          this.deps.queue.renew(claimed.jobId, this.leaseMs).catch(() => undefined);
        },
        Math.max(50, Math.floor(this.leaseMs / 3)),
      );
      const task = runJob(this.deps, claimed, { slots: this.slots, halt: this.halt.signal })
        .catch((error: unknown) =>
          this.deps.logger.error({ err: error, jobId: claimed.jobId }, 'job run crashed'),
        )
        .finally(() => {
          clearInterval(renew);
          this.running -= 1;
          this.inFlight.delete(task);
          this.kick();
        });
      this.inFlight.add(task);
    }
  }
}
