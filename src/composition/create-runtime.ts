/**
 * The composition root of the one-machine default: SQLite (accounts, tokens, usage, jobs, queue) in the data
 * directory, blobs on local disk behind signed links, the guarded URL fetcher, a worker-thread generation pool,
 * the in-process job consumer and the retention sweeper. `close()` stops them in the reverse order.
 */
import type { Logger } from 'pino';
import { LocalDiskBlobStore } from '../adapters/local-disk/local-disk-blob-store.js';
import { ScryptPasswordHasher } from '../adapters/crypto/scrypt-password-hasher.js';
import { MemoryRateLimiter } from '../adapters/memory/memory-rate-limiter.js';
import { SystemClock } from '../adapters/memory/system-clock.js';
import { NoMailer, SmtpMailer } from '../adapters/smtp/smtp-mailer.js';
import { GuardedUrlFetcher } from '../adapters/url-fetch/guarded-url-fetcher.js';
import { GuardedWebhookSender } from '../adapters/url-fetch/guarded-webhook-sender.js';
import type { Config } from '../config/index.js';
import { AccountAdmin, type CreatedAccount } from '../service/account-admin.js';
import { createDeckforgeService } from '../service/create-service.js';
import type { DeckforgeService } from '../service/deckforge-service.js';
import { JobConsumer, type JobConsumerOptions } from '../service/job-consumer.js';
import type { Clock, GenerationPool, Mailer, PasswordHasher } from '../service/ports/index.js';
import { RetentionSweeper } from '../service/retention-sweeper.js';
import { UsageWriter } from '../service/usage-writer.js';
import type { ServiceDeps } from '../service/service-deps.js';
import { WebhookDispatcher } from '../service/webhook-delivery.js';
import { WorkerThreadPool } from '../worker/worker-thread-pool.js';
import { createLogger } from './logger.js';
import { openStores, type StoreSet } from './open-stores.js';
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
  /** Stops running work now: generation threads are terminated, running jobs keep their claim for the next start. */
  interrupt(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Stores only: what `deckforge accounts` needs, without the pool or the consumer. Refuses (SchemaBehindError) a
 * PostgreSQL schema that is behind, like `serve`.
 */
export async function openAccountAdmin(
  config: Config,
  options: { clock?: Clock; hasher?: PasswordHasher } = {},
): Promise<{
  admin: AccountAdmin;
  close(): Promise<void>;
}> {
  const clock = options.clock ?? new SystemClock();
  const stores = await readyStores(config, clock);
  const admin = new AccountAdmin({
    accounts: stores.accounts,
    tokens: stores.tokens,
    webhooks: stores.webhooks,
    sessions: stores.sessions,
    oneTimeTokens: stores.oneTimeTokens,
    jobs: stores.jobs,
    queue: stores.queue,
    ledger: stores.ledger,
    blobs: new LocalDiskBlobStore(config.dataDir, config.linkSecret),
    idempotency: stores.idempotency,
    hasher: options.hasher ?? new ScryptPasswordHasher(),
    clock,
    plans: config.plans,
  });
  return { admin, close: () => stores.close() };
}

/** The stores, once usable; closed again when they are not (a schema behind, a server that does not answer). */
async function readyStores(config: Config, clock: Clock, logger?: Logger): Promise<StoreSet> {
  const stores = openStores(config, clock, logger);
  try {
    await stores.ready();
    return stores;
  } catch (error) {
    await stores.close();
    throw error;
  }
}

export async function createRuntime(config: Config, options: RuntimeOptions = {}): Promise<Runtime> {
  const logger = options.logger ?? createLogger(config);
  const clock = options.clock ?? new SystemClock();
  const hasher = options.hasher ?? new ScryptPasswordHasher();
  const stores = await readyStores(config, clock, logger);
  logger.info({ database: stores.description }, 'stores opened');
  let pool: GenerationPool | null = null;
  let scratch: ScratchDir | null = null;
  try {
    scratch = createScratchDir(config.dataDir);
    pool = new WorkerThreadPool(config.workers, undefined, {
      taskTimeoutMs: config.generationTimeoutMs,
      now: () => clock.now().getTime(),
      memoryBudgetMb: config.generationMemoryMb,
    });
    const mailer = createMailer(config);
    if (config.mail.signup === 'open' && !mailer.configured)
      logger.warn('DECKFORGE_SIGNUP is open but no mail server is configured: sign-up stays closed');
    const fetcher = new GuardedUrlFetcher({
      allowPrivateUrls: config.allowPrivateUrls,
      timeoutMs: config.fetchTimeoutMs,
      maxBytes: config.limits.maxUploadBytes,
    });
    const deps: ServiceDeps = {
      accounts: stores.accounts,
      tokens: stores.tokens,
      ledger: stores.ledger,
      jobs: stores.jobs,
      queue: stores.queue,
      idempotency: stores.idempotency,
      blobs: new LocalDiskBlobStore(config.dataDir, config.linkSecret),
      fetcher,
      webhooks: stores.webhooks,
      webhookSender: new GuardedWebhookSender(fetcher),
      mailer,
      sessions: stores.sessions,
      oneTimeTokens: stores.oneTimeTokens,
      clock,
      hasher,
      pool,
      rateLimiter: new MemoryRateLimiter(clock),
      logger,
      settings: {
        plans: config.plans,
        jobRetentionHours: config.jobRetentionHours,
        fetchTimeoutMs: config.fetchTimeoutMs,
        limits: config.limits,
        scratchDir: scratch.path,
        console: { signup: config.mail.signup, publicUrl: config.publicBaseUrl },
      },
      counters: { decks: 0, slides: 0, seconds: 0 },
      usage: new UsageWriter(stores.ledger, logger),
    };
    const admin = new AccountAdmin({ ...deps, plans: config.plans });
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
    const activeScratch = scratch;
    let closing: Promise<void> | null = null;
    const close = (): Promise<void> => {
      closing ??= (async () => {
        sweeper?.stop();
        await consumer?.stop();
        await dispatcher?.stop();
        await deps.usage.close();
        await deps.mailer.close();
        await activePool.close();
        activeScratch.remove();
        await stores.close();
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
      await activePool.close();
    };
    return { service: created.service, admin, firstAccount, logger, interrupt, close };
  } catch (error) {
    await pool?.close();
    scratch?.remove();
    await stores.close();
    throw error;
  }
}

/** SMTP when DECKFORGE_SMTP_URL is set (config checked that DECKFORGE_MAIL_FROM is then set too). */
function createMailer(config: Config): Mailer {
  const { smtpUrl, mailFrom } = config.mail;
  return smtpUrl !== null && mailFrom !== null ? new SmtpMailer(smtpUrl, mailFrom) : new NoMailer();
}
