/**
 * Webhooks: a job submitted with a callback_url gets, when it ends, a POST of its status body (plus `job_id`)
 * signed `Deckforge-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">` with the account's webhook
 * secret (Stripe's scheme). Non-2xx or no answer is retried with doubling pauses for up to 24 hours from the end of
 * the job. Delivery is at least once (a process that dies mid-send sends again), so receivers key on job_id.
 *
 * A webhook never delays or fails its job: the job is final before anything is sent, and delivery runs on its own
 * timer. The dispatcher also finds jobs that ended without telling it (another process, a crash, recovery), since
 * every delivery is WAITING in the database until its job is seen to have ended.
 *
 * Fair between accounts: at most MAX_IN_FLIGHT attempts run at once, at most MAX_IN_FLIGHT_PER_ACCOUNT of them
 * for one account, and each attempt that ends makes room for the next due one at once (no batch waits for its
 * slowest member). An account whose receivers never answer holds two places until ATTEMPT_TIMEOUT_MS, the
 * deadline of one attempt (headers and body together); the other accounts' deliveries go out meanwhile.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { Account, WebhookDeliveryView } from '../deckforge-service.js';
import { InvalidInputError } from '../errors.js';
import { outputLinks } from './job-outputs.js';
import { warningCountOf } from './job-warnings.js';
import { FetchError, type WebhookDeliveryRecord } from '../ports/index.js';
import { DOWNLOAD_LINK_VALIDITY_MS, type ServiceDeps } from '../service-deps.js';

export const WEBHOOK_RETRY_WINDOW_MS = 24 * 60 * 60 * 1000;
const FIRST_RETRY_MS = 1_000;
const LONGEST_PAUSE_MS = 10 * 60 * 1000;
const ATTEMPT_TIMEOUT_MS = 10_000;
const MAX_IN_FLIGHT = 8;
const MAX_IN_FLIGHT_PER_ACCOUNT = 2;

export interface CallbackRequest {
  url: string;
  /** Where the event's file_url points (the submission's own origin); null: the event carries no link. */
  linkBase: string | null;
}

/** `t=…,v1=…` for `body` sent at `timestamp` (Unix seconds). */
export function webhookSignature(secret: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${mac}`;
}

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64url')}`;
}

/** At submission: the account has a secret and the URL passes the guard; otherwise a 400 naming the field. */
export async function checkCallback(deps: ServiceDeps, account: Account, url: string): Promise<void> {
  if ((await deps.webhooks.getSecret(account.id)) === null) {
    throw new InvalidInputError(
      'callback_url: this account has no webhook secret yet; the operator creates one with ' +
        `"deckforge accounts webhook-secret --email ${account.email}"`,
    );
  }
  try {
    await deps.webhookSender.check(url);
  } catch (error) {
    if (error instanceof FetchError) throw new InvalidInputError(`callback_url: ${error.message}`);
    throw error;
  }
}

export async function createDelivery(
  deps: ServiceDeps,
  account: Account,
  jobId: string,
  callback: CallbackRequest,
): Promise<void> {
  await deps.webhooks.createDelivery({
    jobId,
    accountId: account.id,
    url: callback.url,
    linkBase: callback.linkBase,
    state: 'WAITING',
    attempts: 0,
    lastStatus: null,
    lastError: null,
    endedAt: null,
    nextAttemptAt: null,
  });
}

export function deliveryView(record: WebhookDeliveryRecord): WebhookDeliveryView {
  return {
    url: record.url,
    state: record.state,
    attempts: record.attempts,
    last_status: record.lastStatus,
    last_error: record.lastError,
  };
}

export class WebhookDispatcher {
  private timer: NodeJS.Timeout | null = null;
  private ticking = false;
  private again = false;
  private current: Promise<void> = Promise.resolve();
  /** Attempts under way, and how many of them each account has. */
  private readonly attempts = new Set<Promise<void>>();
  private readonly perAccount = new Map<string, number>();

  constructor(
    private readonly deps: ServiceDeps,
    private readonly everyMs = 1_000,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.kick(), this.everyMs);
    this.timer.unref();
    this.kick();
  }

  /** The minimal hook at the end of a job: look now rather than at the next tick. */
  jobEnded(jobId: string): void {
    this.deps.webhooks
      .markEnded(jobId, this.deps.clock.now())
      .then(() => this.kick())
      .catch((error: unknown) => this.deps.logger.error({ err: error, jobId }, 'webhook scheduling failed'));
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.current;
    await Promise.all(this.attempts);
  }

  private kick(): void {
    if (this.ticking) {
      this.again = true;
      return;
    }
    this.ticking = true;
    this.current = this.tick()
      .catch((error: unknown) => this.deps.logger.error({ err: error }, 'webhook delivery failed'))
      .finally(() => {
        this.ticking = false;
        if (this.again && this.timer) {
          this.again = false;
          this.kick();
        }
      });
  }

  private async tick(): Promise<void> {
    const { webhooks, jobs, clock } = this.deps;
    for (const waiting of await webhooks.listWaiting(100)) {
      const job = await jobs.get(waiting.jobId);
      if (!job || job.state === 'SUCCEEDED' || job.state === 'FAILED') {
        await webhooks.markEnded(waiting.jobId, clock.now());
      }
    }
    while (this.attempts.size < MAX_IN_FLIGHT) {
      const now = clock.now();
      const holdUntil = new Date(now.getTime() + ATTEMPT_TIMEOUT_MS * 2);
      const busy = [...this.perAccount].filter(([, n]) => n >= MAX_IN_FLIGHT_PER_ACCOUNT).map(([id]) => id);
      const [due] = await webhooks.claimDue(now, holdUntil, 1, busy);
      if (!due) return;
      this.launch(due);
    }
  }

  /** Runs one attempt beside the others; when it ends, its place goes to the next due delivery. */
  private launch(delivery: WebhookDeliveryRecord): void {
    const account = delivery.accountId;
    this.perAccount.set(account, (this.perAccount.get(account) ?? 0) + 1);
    const running: Promise<void> = this.attempt(delivery)
      .catch((error: unknown) =>
        this.deps.logger.error({ err: error, jobId: delivery.jobId }, 'webhook delivery failed'),
      )
      .finally(() => {
        this.attempts.delete(running);
        const left = (this.perAccount.get(account) ?? 1) - 1;
        if (left === 0) this.perAccount.delete(account);
        else this.perAccount.set(account, left);
        if (this.timer) this.kick();
      });
    this.attempts.add(running);
  }

  private async attempt(delivery: WebhookDeliveryRecord): Promise<void> {
    const { deps } = this;
    const log = { jobId: delivery.jobId, attempt: delivery.attempts + 1 };
    const secret = await deps.webhooks.getSecret(delivery.accountId);
    const body = await this.eventBody(delivery);
    if (body === null || secret === null) {
      const why = body === null ? 'the job no longer exists' : 'the account has no webhook secret';
      await deps.webhooks.recordAttempt(delivery.jobId, {
        state: 'GAVE_UP',
        lastStatus: null,
        lastError: why,
        nextAttemptAt: null,
      });
      return;
    }
    const timestamp = Math.floor(deps.clock.now().getTime() / 1000);
    let status: number | null = null;
    let error: string | null = null;
    try {
      status = await deps.webhookSender.post(
        delivery.url,
        body,
        {
          'deckforge-signature': webhookSignature(secret, timestamp, body),
          'deckforge-job-id': delivery.jobId,
        },
        ATTEMPT_TIMEOUT_MS,
      );
      if (status < 200 || status > 299) error = `the receiver answered HTTP ${status}`;
    } catch (failure) {
      error = failure instanceof Error ? failure.message : String(failure);
    }
    if (error === null) {
      await deps.webhooks.recordAttempt(delivery.jobId, {
        state: 'DELIVERED',
        lastStatus: status,
        lastError: null,
        nextAttemptAt: null,
      });
      deps.logger.info({ ...log, status }, 'webhook delivered');
      return;
    }
    const pause = Math.min(LONGEST_PAUSE_MS, FIRST_RETRY_MS * 2 ** delivery.attempts);
    const next = deps.clock.now().getTime() + pause;
    const windowEnds = new Date(delivery.endedAt ?? deps.clock.now()).getTime() + WEBHOOK_RETRY_WINDOW_MS;
    const gaveUp = next > windowEnds;
    await deps.webhooks.recordAttempt(delivery.jobId, {
      state: gaveUp ? 'GAVE_UP' : 'DELIVERING',
      lastStatus: status,
      lastError: error,
      nextAttemptAt: gaveUp ? null : new Date(next).toISOString(),
    });
    deps.logger.info({ ...log, status, reason: error, gaveUp }, 'webhook attempt failed');
  }

  /** The job's status body and id, with a fresh download link when it succeeded; null when the job is gone. */
  private async eventBody(delivery: WebhookDeliveryRecord): Promise<string | null> {
    const { deps } = this;
    const job = await deps.jobs.get(delivery.jobId);
    if (!job) return null;
    let fileUrl: string | null = null;
    if (job.state === 'SUCCEEDED' && job.resultKey && job.resultFileName && delivery.linkBase) {
      fileUrl = await deps.blobs.signedUrl({
        key: job.resultKey,
        fileName: job.resultFileName,
        baseUrl: delivery.linkBase,
        expiresAt: new Date(deps.clock.now().getTime() + DOWNLOAD_LINK_VALIDITY_MS),
      });
    }
    // The PDF's and the slide images' links too, as the status gives them (job-outputs.ts).
    const links = delivery.linkBase
      ? await outputLinks(deps, job.id, fileUrl !== null, delivery.linkBase)
      : {};
    return JSON.stringify({
      job_id: job.id,
      status: job.state,
      error_message: job.state === 'FAILED' ? job.errorMessage : null,
      file_url: fileUrl,
      ...(links.pdfUrl !== undefined ? { pdf_url: links.pdfUrl } : {}),
      ...(links.previewUrls !== undefined ? { preview_urls: links.previewUrls } : {}),
      warnings: job.warnings,
      warning_count: warningCountOf(job),
    });
  }
}
