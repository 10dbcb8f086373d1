/**
 * The composition root of the one-machine default: SQLite (accounts, tokens, usage, jobs, queue) in the data
 * directory, blobs on local disk behind signed links, the guarded URL fetcher, a worker-thread generation pool,
 * the in-process job consumer and the retention sweeper. `close()` stops them in the reverse order.
 */
import { join } from 'node:path';
import type { Logger } from 'pino';
import { LocalDiskBlobStore } from '../adapters/local-disk/local-disk-blob-store.js';
import { ScryptPasswordHasher } from '../adapters/crypto/scrypt-password-hasher.js';
import { MemoryRateLimiter } from '../adapters/memory/memory-rate-limiter.js';
import { SystemClock } from '../adapters/memory/system-clock.js';
import { databasePath, openDatabase, type SqliteDatabase } from '../adapters/sqlite/database.js';
import { SqliteAccountStore } from '../adapters/sqlite/sqlite-account-store.js';
import { SqliteJobQueue } from '../adapters/sqlite/sqlite-job-queue.js';
import { SqliteJobStore } from '../adapters/sqlite/sqlite-job-store.js';
import { SqliteIdempotencyKeys } from '../adapters/sqlite/sqlite-idempotency-keys.js';
import { SqliteTokenStore } from '../adapters/sqlite/sqlite-token-store.js';
import { SqliteUsageLedger } from '../adapters/sqlite/sqlite-usage-ledger.js';
import { SqliteWebhookStore } from '../adapters/sqlite/sqlite-webhook-store.js';
import { GuardedUrlFetcher } from '../adapters/url-fetch/guarded-url-fetcher.js';
import { GuardedWebhookSender } from '../adapters/url-fetch/guarded-webhook-sender.js';
import type { Config } from '../config/index.js';
import { AccountAdmin, type CreatedAccount } from '../service/account-admin.js';
import { createDeckforgeService } from '../service/create-service.js';
import type { DeckforgeService } from '../service/deckforge-service.js';
import { JobConsumer, type JobConsumerOptions } from '../service/job-consumer.js';
import type { Clock, GenerationPool, PasswordHasher, Renderer } from '../service/ports/index.js';
import { RetentionSweeper } from '../service/retention-sweeper.js';
import { UsageWriter } from '../service/usage-writer.js';
import type { ServiceDeps } from '../service/service-deps.js';
import { WebhookDispatcher } from '../service/webhook-delivery.js';
import { LibreOfficeRendererPool } from '../rendering/libreoffice-renderer-pool.js';
import { WorkerThreadPool } from '../worker/worker-thread-pool.js';
import { createLogger } from './logger.js';
import { createScratchDir, type ScratchDir } from './scratch-dir.js';

export interface RuntimeOptions {
  /** Run queued jobs in this process (default true; `deckforge serve` and `deckforge worker`). */
  consumeJobs?: boolean;
  /**
   * Jobs run at once. Default: one fewer than the generation threads (at least one), so a synchronous request
   * always finds a free thread while jobs run; `deckforge worker`, which serves no requests, uses all of them.
   */
  jobConcurrency?: number;
  /** Create and return the first account when the database has none (`deckforge serve`). */
  createFirstAccount?: boolean;
  logger?: Logger;
  clock?: Clock;
  hasher?: PasswordHasher;
  /** Tests: shorter leases and polls. */
  consumer?: Partial<Omit<JobConsumerOptions, 'concurrency'>>;
  sweepEveryMs?: number;
}

export interface Runtime {
  service: DeckforgeService;
  admin: AccountAdmin;
  /** Set when `createFirstAccount` made one: show it once, then forget it. */
  firstAccount: CreatedAccount | null;
  logger: Logger;
  /** PDF and PNG previews: a pool of LibreOffice processes, started on first use, stopped by close(). */
  renderer: Renderer;
  /** Stops running work now: generation threads are terminated, running jobs keep their claim for the next start. */
  interrupt(): Promise<void>;
  close(): Promise<void>;
}

/** Stores only: what `deckforge accounts` needs, without the pool or the consumer. */
export function openAccountAdmin(
  config: Config,
  options: { clock?: Clock; hasher?: PasswordHasher } = {},
): {
  admin: AccountAdmin;
  close(): void;
} {
  const db = openDatabase(databasePath(config.dataDir));
  const clock = options.clock ?? new SystemClock();
  const admin = new AccountAdmin({
    accounts: new SqliteAccountStore(db),
    tokens: new SqliteTokenStore(db, clock),
    webhooks: new SqliteWebhookStore(db),
    hasher: options.hasher ?? new ScryptPasswordHasher(),
    clock,
    plans: config.plans,
  });
  return { admin, close: () => db.close() };
}

export async function createRuntime(config: Config, options: RuntimeOptions = {}): Promise<Runtime> {
  const logger = options.logger ?? createLogger(config);
  const clock = options.clock ?? new SystemClock();
  const hasher = options.hasher ?? new ScryptPasswordHasher();
  const db: SqliteDatabase = openDatabase(databasePath(config.dataDir));
  let pool: GenerationPool | null = null;
  let renderer: Renderer | null = null;
  let scratch: ScratchDir | null = null;
  try {
    scratch = createScratchDir(config.dataDir);
    pool = new WorkerThreadPool(config.workers, undefined, {
      taskTimeoutMs: config.generationTimeoutMs,
      now: () => clock.now().getTime(),
      memoryBudgetMb: config.generationMemoryMb,
    });
    // No LibreOffice process starts here (the first preview starts one): the service starts as fast without.
    renderer = new LibreOfficeRendererPool({
      size: config.rendering.renderers,
      timeoutMs: config.rendering.timeoutMs,
      recycleAfter: config.rendering.recycleAfter,
      memoryCeilingMb: config.rendering.memoryMb,
      workDir: join(scratch.path, 'renderers'),
      searchPath: config.rendering.searchPath,
      python: config.rendering.python,
      onReplace: (reason, diagnostics) =>
        logger.warn({ reason, diagnostics: diagnostics || undefined }, 'renderer process replaced'),
    });
    const ledger = new SqliteUsageLedger(db, clock);
    const fetcher = new GuardedUrlFetcher({
      allowPrivateUrls: config.allowPrivateUrls,
      timeoutMs: config.fetchTimeoutMs,
      maxBytes: config.limits.maxUploadBytes,
    });
    const deps: ServiceDeps = {
      accounts: new SqliteAccountStore(db),
      tokens: new SqliteTokenStore(db, clock),
      ledger,
      jobs: new SqliteJobStore(db),
      queue: new SqliteJobQueue(db, clock),
      idempotency: new SqliteIdempotencyKeys(db),
      blobs: new LocalDiskBlobStore(config.dataDir, config.linkSecret),
      fetcher,
      webhooks: new SqliteWebhookStore(db),
      webhookSender: new GuardedWebhookSender(fetcher),
      clock,
      hasher,
      pool,
      renderer,
      rateLimiter: new MemoryRateLimiter(clock),
      logger,
      settings: {
        plans: config.plans,
        jobRetentionHours: config.jobRetentionHours,
        fetchTimeoutMs: config.fetchTimeoutMs,
        limits: config.limits,
        scratchDir: scratch.path,
      },
      counters: { decks: 0, slides: 0, seconds: 0 },
      usage: new UsageWriter(ledger, logger),
    };
    const admin = new AccountAdmin({
      accounts: deps.accounts,
      tokens: deps.tokens,
      webhooks: deps.webhooks,
      hasher,
      clock,
      plans: config.plans,
    });
    const firstAccount = options.createFirstAccount ? await admin.ensureFirstAccount() : null;
    if (firstAccount) logger.info({ email: firstAccount.email }, 'first account created');

    const consumer =
      options.consumeJobs === false
        ? null
        : new JobConsumer(deps, {
            ...options.consumer,
            concurrency: options.jobConcurrency ?? Math.max(1, pool.size - 1),
          });
    const sweeper = options.consumeJobs === false ? null : new RetentionSweeper(deps, options.sweepEveryMs);
    // Where jobs run, webhooks are sent: the job's end is seen at once, and pending retries resume after a restart.
    const dispatcher = options.consumeJobs === false ? null : new WebhookDispatcher(deps);
    if (dispatcher) deps.onJobEnded = (jobId) => dispatcher.jobEnded(jobId);
    const activePool = pool;
    const activeRenderer = renderer;
    const activeScratch = scratch;
    let closing: Promise<void> | null = null;
    const close = (): Promise<void> => {
      closing ??= (async () => {
        sweeper?.stop();
        await consumer?.stop();
        await dispatcher?.stop();
        await deps.usage.close();
        await deps.queue.close();
        await activePool.close();
        await activeRenderer.close();
        activeScratch.remove();
        db.close();
      })();
      return closing;
    };
    const created = createDeckforgeService(deps, close);
    if (consumer) {
      created.setJobQueuedListener(() => consumer.kick());
      await consumer.start();
    }
    sweeper?.start();
    dispatcher?.start();
    const interrupt = async (): Promise<void> => {
      consumer?.interrupt();
      await Promise.all([activePool.close(), activeRenderer.close()]);
    };
    return {
      service: created.service,
      admin,
      firstAccount,
      logger,
      renderer: activeRenderer,
      interrupt,
      close,
    };
  } catch (error) {
    await pool?.close();
    await renderer?.close();
    scratch?.remove();
    db.close();
    throw error;
  }
}
