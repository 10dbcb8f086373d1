/**
 * Builds the DeckforgeService facade from ports. The composition root (src/composition) supplies the adapters;
 * the job consumer and the retention sweeper are started by whoever runs jobs (`serve`, `worker`).
 */
import { currentPeriodKey, planOf } from './usage/account-plans.js';
import type { Account, DeckforgeService, ServiceStats, UploadedFile } from './deckforge-service.js';
import { GenerationTimeLimitError, InvalidInputError, TooManyRequestsError } from './errors.js';
import { AccountGate } from './generation/account-gate.js';
import { createConsoleService } from './create-console-service.js';
import { generateNow } from './generation/generate-now.js';
import { generateOnce, submitOnce } from './generation/idempotency.js';
import { authenticate, issueToken } from './accounts/issue-token.js';
import { jobStatus, openDownload } from './jobs/job-status.js';
import { FetchError, GenerationTimeoutError } from './ports/index.js';
import type { ServiceDeps } from './service-deps.js';
import { SignInGuard } from './accounts/sign-in-guard.js';
import { checkSlidesLeft } from './usage/slide-quota.js';
import { submitJob } from './jobs/submit-job.js';
import { renderUpload } from './generation/render-upload.js';
import { usageReport } from './usage/usage-report.js';
import { usageDetail } from './usage/usage-detail.js';
import { createToken, listTokens, revokeToken } from './accounts/account-tokens.js';
import { jobSummary, listJobs } from './jobs/job-listing.js';

/** /healthz says "degraded" once no generation thread has been free for this long (issue 10). */
export const WORKERS_STALLED_AFTER_MS = 30_000;

export interface CreatedService {
  service: DeckforgeService;
  /** Called after a local submission, so the in-process consumer starts at once instead of at its next poll. */
  setJobQueuedListener(listener: () => void): void;
}

export function createDeckforgeService(
  deps: ServiceDeps,
  onClose: () => Promise<void> = async () => {},
): CreatedService {
  let onQueued: () => void = () => undefined;
  const signIns = new SignInGuard(deps.rateLimiter);
  const syncGenerations = new AccountGate(deps.settings.limits.syncGenerationsPerAccount);

  const service: DeckforgeService = {
    issueToken: (credentials, origin) => issueToken(deps, signIns, credentials, origin),
    authenticate: (token) => authenticate(deps, token),

    async checkRateLimit(account: Account): Promise<void> {
      const plan = planOf(deps, account);
      const decision = await deps.rateLimiter.hit(account.id, plan.requestsPerMinute);
      if (!decision.allowed) {
        throw new TooManyRequestsError(
          `request rate limit exceeded: plan ${plan.name} allows ${plan.requestsPerMinute} requests per minute`,
          decision.retryAfterSeconds,
        );
      }
    },

    checkSlidesLeft: (account) => checkSlidesLeft(deps, account),

    async recordApiCall(account: Account, succeeded: boolean): Promise<void> {
      deps.usage.countApiCall(account.id, currentPeriodKey(deps, account), succeeded);
    },

    generateNow(account, request) {
      const { idempotencyKey } = request;
      if (idempotencyKey === undefined) return generateNow(deps, account, request, syncGenerations);
      return generateOnce(deps, account, { ...request, idempotencyKey }, () =>
        generateNow(deps, account, request, syncGenerations),
      );
    },
    submitJob(account, request) {
      const { idempotencyKey } = request;
      if (idempotencyKey === undefined) return submitJob(deps, account, request, () => onQueued());
      return submitOnce(deps, account, { ...request, idempotencyKey }, (jobId) =>
        submitJob(deps, account, request, () => onQueued(), jobId),
      );
    },
    jobStatus: (account, jobId, baseUrl) => jobStatus(deps, account, jobId, baseUrl),
    openDownload: (signedPath) => openDownload(deps, signedPath),
    usage: (account) => usageReport(deps, account),
    usageDetail: (account) => usageDetail(deps, account),
    listTokens: (account) => listTokens(deps, account),
    createToken: (account, name) => createToken(deps, account, name),
    revokeToken: (account, tokenId) => revokeToken(deps, account, tokenId),
    listJobs: (account, baseUrl) => listJobs(deps, account, baseUrl),
    jobSummary: (account, jobId, baseUrl) => jobSummary(deps, account, jobId, baseUrl),
    render: (account, upload) => renderUpload(deps, account, upload),

    async inspectTemplate(_account, source): Promise<unknown> {
      const bytes = await templateToInspect(deps, source);
      try {
        return await deps.pool.inspect(bytes);
      } catch (error) {
        if (error instanceof GenerationTimeoutError) throw new GenerationTimeLimitError(error.budgetMs);
        throw error;
      }
    },

    async stats(): Promise<ServiceStats> {
      const [jobsByState, queueDepth] = await Promise.all([deps.jobs.countByState(), deps.queue.depth()]);
      return {
        jobsByState,
        queueDepth,
        generatedDecks: deps.counters.decks,
        generatedSlides: deps.counters.slides,
        generationSeconds: deps.counters.seconds,
        workers: deps.pool.stats(),
      };
    },

    async health() {
      const checks = {
        database: await deps.accounts.count().then(
          () => true,
          () => false,
        ),
        queue: await deps.queue.depth().then(
          () => true,
          () => false,
        ),
        blobStore: await deps.blobs.ping().catch(() => false),
      };
      const workers = deps.pool.stats();
      // Every thread busy (or being replaced) for long: requests wait however healthy the rest is.
      const stalled = workers.saturatedMs >= WORKERS_STALLED_AFTER_MS;
      const status = !Object.values(checks).every(Boolean) ? 'unavailable' : stalled ? 'degraded' : 'ok';
      return { status, checks: { ...checks, workers: !stalled }, workers, previews: deps.renderer.status() };
    },

    console: createConsoleService(deps, signIns),

    close: onClose,
  };

  return {
    service,
    setJobQueuedListener(listener) {
      onQueued = listener;
    },
  };
}

async function templateToInspect(
  deps: ServiceDeps,
  source: { files: UploadedFile[]; templateUrl?: string },
): Promise<Uint8Array> {
  const url = source.templateUrl?.trim();
  if (url) {
    try {
      return await deps.fetcher.fetch(url);
    } catch (error) {
      if (error instanceof FetchError) throw new InvalidInputError(`template ${error.message}`);
      throw error;
    }
  }
  if (source.files.length === 0) {
    throw new InvalidInputError('send the template as a "files" part, or give its URL in "template"');
  }
  const template = source.files.find((f) => /\.(pptx|potx|pptm)$/i.test(f.name)) ?? source.files[0];
  if (!template) throw new InvalidInputError('no template file was sent');
  if (template.bytes.byteLength > deps.settings.limits.maxUploadBytes) {
    throw new InvalidInputError('the template is larger than the upload limit');
  }
  return template.bytes;
}
