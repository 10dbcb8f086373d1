/**
 * The composition root: the stores (SQLite in the data directory, or PostgreSQL), the job queue and the rate
 * limiter (in-process, or BullMQ and Redis), blobs (local disk behind signed links, or S3), the guarded URL
 * fetcher, the generation thread pool, the LibreOffice renderer, the job events, and, where jobs run, the job
 * consumer, the webhook dispatcher and the retention sweeper (docs/operations.md). `close()` stops them in the
 * reverse order.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pino, type Logger } from 'pino';
import { ScryptPasswordHasher } from '../adapters/crypto/scrypt-password-hasher.js';
import { InProcessJobEvents } from '../adapters/memory/in-process-job-events.js';
import { SystemClock } from '../adapters/clock/system-clock.js';
import { LogMailer } from '../adapters/mail-log/log-mailer.js';
import { NoMailer, SmtpMailer } from '../adapters/smtp/smtp-mailer.js';
import { databasePath } from '../adapters/sqlite/database.js';
import { GuardedUrlFetcher } from '../adapters/url-fetch/guarded-url-fetcher.js';
import { GuardedWebhookSender } from '../adapters/url-fetch/guarded-webhook-sender.js';
import type { Config } from '../config/index.js';
import { AccountAdmin, type CreatedAccount } from '../service/accounts/account-admin.js';
import { AfterAnswer } from '../service/after-answer.js';
import { createDeckforgeService } from '../service/create-service.js';
import type { DeckforgeService } from '../service/deckforge-service.js';
import { JobConsumer, type JobConsumerOptions } from '../service/jobs/job-consumer.js';
import type { Clock, GenerationPool, Mailer, PasswordHasher, Renderer } from '../service/ports/index.js';
import { RetentionSweeper } from '../service/retention-sweeper.js';
import { InspectResults } from '../service/inspect-results.js';
import { UsageWriter } from '../service/usage-writer.js';
import type { ServiceDeps } from '../service/service-deps.js';
import { WebhookDispatcher } from '../service/jobs/webhook-delivery.js';
import { LibreOfficeRendererPool } from '../adapters/libreoffice/libreoffice-renderer-pool.js';
import { WorkerThreadPool } from '../adapters/generation-threads/worker-thread-pool.js';
import { createLogger } from './logger.js';
import { openBlobStore, openQueueAndLimiter, type QueueAndLimiter } from './open-queue-and-files.js';
import { NoDataError, openStores, type StoreSet } from './open-stores.js';
import { createScratchDir, type ScratchDir } from './scratch-dir.js';
import { templateCacheBudget } from './template-cache-budget.js';

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
  /** Resolves when the work requests left to run after their answers (console mail) has ended. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Stores only: what `deckforge accounts` needs, without the pool or the consumer. Refuses (SchemaBehindError) a
 * PostgreSQL schema that is behind, like `serve`. With `existingData`, a data directory that holds no database
 * yet is refused (NoDataError) instead of created empty: a command that reads or changes accounts, run from the
 * wrong folder, would otherwise answer from a new empty database that no server uses.
 */
export async function openAccountAdmin(
  config: Config,
  options: { clock?: Clock; hasher?: PasswordHasher; existingData?: boolean } = {},
): Promise<{
  admin: AccountAdmin;
  /** Where the accounts are: the SQLite file, or the PostgreSQL server without its password. */
  description: string;
  close(): Promise<void>;
}> {
  const clock = options.clock ?? new SystemClock();
  if (
    options.existingData === true &&
    config.database === null &&
    !existsSync(databasePath(config.dataDir))
  ) {
    throw new NoDataError(config.dataDir);
  }
  const stores = await readyStores(config, clock);
  // Deleting an account empties its queued jobs and stored files wherever they live (Redis, S3).
  const shared = await openQueueAndLimiter(
    config,
    clock,
    stores.jobs,
    stores.local,
    pino({ level: 'silent' }),
  );
  const admin = new AccountAdmin({
    accounts: stores.accounts,
    tokens: stores.tokens,
    webhooks: stores.webhooks,
    sessions: stores.sessions,
    oneTimeTokens: stores.oneTimeTokens,
    templates: stores.templates,
    jobs: stores.jobs,
    queue: shared.queue,
    ledger: stores.ledger,
    blobs: await openBlobStore(config),
    idempotency: stores.idempotency,
    hasher: options.hasher ?? new ScryptPasswordHasher(),
    clock,
    plans: config.plans,
  });
  return {
    admin,
    description: stores.description,
    close: async () => {
      await shared.queue.close();
      shared.close();
      await stores.close();
    },
  };
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
  let renderer: Renderer | null = null;
  let scratch: ScratchDir | null = null;
  let shared: QueueAndLimiter | null = null;
  try {
    scratch = createScratchDir(config.dataDir);
    const cacheBudget = templateCacheBudget(config.templateCacheMb, config.workers);
    pool = new WorkerThreadPool(config.workers, undefined, {
      taskTimeoutMs: config.generationTimeoutMs,
      now: () => clock.now().getTime(),
      memoryBudgetMb: config.generationMemoryMb,
      templateCacheBytes: cacheBudget.perThreadBytes,
    });
    // No LibreOffice process starts here (the first preview starts one): the service starts as fast without.
    const threads = pool;
    renderer = new LibreOfficeRendererPool({
      size: config.rendering.renderers,
      timeoutMs: config.rendering.timeoutMs,
      recycleAfter: config.rendering.recycleAfter,
      memoryCeilingMb: config.rendering.memoryMb,
      workDir: join(scratch.path, 'renderers'),
      searchPath: config.rendering.searchPath,
      python: config.rendering.python,
      isolation: config.rendering.isolation,
      maxImagePixels: config.limits.maxImagePixels,
      // A hostile deck's copy is work like a generation: on a generation thread, never the event loop.
      safeCopy: (deck, limits) => threads.renderSafeCopy(deck, limits),
      onReplace: (reason, diagnostics) =>
        logger.warn({ reason, diagnostics: diagnostics || undefined }, 'renderer process replaced'),
    });
    // Said at start, not at the first preview: an operator reads the start-up log (docs/security.md).
    const previews = renderer;
    void previews.detected().then(() => {
      const status = previews.status();
      if (status.isolated !== false) return;
      logger.warn(
        { reason: status.isolationReason, policy: config.rendering.isolation },
        config.rendering.isolation === 'required'
          ? 'previews: not isolated, and DECKFORGE_RENDER_ISOLATION=required: no renderer will start'
          : 'previews: not isolated, DECKFORGE_RENDER_ISOLATION=unsandboxed-accept-risk: LibreOffice renders untrusted decks without its sandbox',
      );
    });
    const mailer = createMailer(config, logger);
    if (config.mail.logOnly)
      logger.warn(
        'DECKFORGE_MAIL_LOG=true: mails are written to this log instead of sent (development only)',
      );
    if (config.mail.signup === 'open' && !mailer.configured)
      logger.warn('DECKFORGE_SIGNUP is open but no mail server is configured: sign-up stays closed');
    const fetcher = new GuardedUrlFetcher({
      allowPrivateUrls: config.allowPrivateUrls,
      timeoutMs: config.fetchTimeoutMs,
      maxBytes: config.limits.maxUploadBytes,
    });
    shared = await openQueueAndLimiter(config, clock, stores.jobs, stores.local, logger);
    const jobEvents = new InProcessJobEvents();
    const deps: ServiceDeps = {
      accounts: stores.accounts,
      tokens: stores.tokens,
      ledger: stores.ledger,
      jobs: stores.jobs,
      queue: shared.queue,
      idempotency: stores.idempotency,
      blobs: await openBlobStore(config),
      fetcher,
      webhooks: stores.webhooks,
      webhookSender: new GuardedWebhookSender(fetcher),
      mailer,
      sessions: stores.sessions,
      oneTimeTokens: stores.oneTimeTokens,
      templates: stores.templates,
      jobEvents,
      clock,
      hasher,
      pool,
      renderer,
      rateLimiter: shared.rateLimiter,
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
      afterAnswer: new AfterAnswer(logger),
      inspectResults: new InspectResults(cacheBudget.inspectResultsBytes),
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
    if (dispatcher) jobEvents.whenEnded((jobId) => dispatcher.jobEnded(jobId));
    if (consumer) jobEvents.whenQueued(() => consumer.kick());
    const activePool = pool;
    const activeRenderer = renderer;
    const activeScratch = scratch;
    const activeShared = shared;
    let closing: Promise<void> | null = null;
    const close = (): Promise<void> => {
      closing ??= (async () => {
        sweeper?.stop();
        await consumer?.stop();
        await dispatcher?.stop();
        await deps.usage.close();
        await deps.afterAnswer.settled();
        await deps.mailer.close();
        await deps.queue.close();
        activeShared.close();
        await activePool.close();
        await activeRenderer.close();
        activeScratch.remove();
        await stores.close();
      })();
      return closing;
    };
    const service = createDeckforgeService(deps, close);
    await consumer?.start();
    sweeper?.start();
    dispatcher?.start();
    const interrupt = async (): Promise<void> => {
      consumer?.interrupt();
      await Promise.all([activePool.close(), activeRenderer.close()]);
    };
    return {
      service,
      admin,
      firstAccount,
      logger,
      renderer: activeRenderer,
      interrupt,
      settled: () => deps.afterAnswer.settled(),
      close,
    };
  } catch (error) {
    if (shared) {
      await shared.queue.close().catch(() => undefined);
      shared.close();
    }
    await pool?.close();
    await renderer?.close();
    scratch?.remove();
    await stores.close();
    throw error;
  }
}

/**
 * SMTP when DECKFORGE_SMTP_URL is set (config checked that DECKFORGE_MAIL_FROM is then set too), the log in the
 * development mode, else none.
 */
function createMailer(config: Config, logger: Logger): Mailer {
  const { smtpUrl, mailFrom, logOnly } = config.mail;
  if (logOnly && mailFrom !== null) return new LogMailer(logger, mailFrom);
  return smtpUrl !== null && mailFrom !== null ? new SmtpMailer(smtpUrl, mailFrom) : new NoMailer();
}
