/**
 * Everything the use cases need, wired by the composition root: ports, plain settings, and the one writer
 * that batches usage writes to the ledger port.
 */
import type { PlanCatalog } from '../config/plans.js';
import type {
  AccountStore,
  BlobStore,
  Clock,
  GenerationPool,
  IdempotencyKeys,
  JobEvents,
  JobQueue,
  JobStore,
  Mailer,
  OneTimeTokenStore,
  PasswordHasher,
  RateLimiter,
  Renderer,
  ServiceLogger,
  SessionStore,
  TemplateFetcher,
  TemplateStore,
  TokenStore,
  UsageLedger,
  WebhookSender,
  WebhookStore,
} from './ports/index.js';
import type { AfterAnswer } from './after-answer.js';
import type { InspectResults } from './inspect-results.js';
import type { UsageWriter } from './usage-writer.js';

export interface ServiceSettings {
  plans: PlanCatalog;
  /** A local folder of this process where decks are written while they are generated (composition: scratch-dir.ts). */
  scratchDir: string;
  jobRetentionHours: number;
  /** All the URLs of one request or job are fetched within this time (DECKFORGE_FETCH_TIMEOUT_SECONDS). */
  fetchTimeoutMs: number;
  limits: {
    maxUploadBytes: number;
    maxFilesPerRequest: number;
    maxSlidesPerRequest: number;
    syncMaxSlides: number;
    maxImagePixels: number;
    maxImageBytes: number;
    fetchConcurrency: number;
    maxFetchBytes: number;
    syncGenerationsPerAccount: number;
  };
  /** The console's accounts (DECKFORGE_SIGNUP, DECKFORGE_PUBLIC_URL). */
  console: {
    signup: 'open' | 'closed';
    /** The base of the links in mails when set; otherwise the request's trusted origin. */
    publicUrl: string | null;
  };
}

export interface ServicePorts {
  accounts: AccountStore;
  tokens: TokenStore;
  ledger: UsageLedger;
  jobs: JobStore;
  queue: JobQueue;
  idempotency: IdempotencyKeys;
  blobs: BlobStore;
  fetcher: TemplateFetcher;
  clock: Clock;
  hasher: PasswordHasher;
  pool: GenerationPool;
  /** PDF and PNG previews; its status() tells /healthz whether previews can be made here. */
  renderer: Renderer;
  rateLimiter: RateLimiter;
  logger: ServiceLogger;
  webhooks: WebhookStore;
  webhookSender: WebhookSender;
  mailer: Mailer;
  sessions: SessionStore;
  oneTimeTokens: OneTimeTokenStore;
  /** Stored templates' records; their bytes are on `blobs` (templates/template-blobs.ts). */
  templates: TemplateStore;
  /** A job queued or ended: the consumer and the webhook dispatcher act on it at once. */
  jobEvents: JobEvents;
}

/** Counters since the process started, for /metrics. */
export interface GenerationCounters {
  decks: number;
  slides: number;
  seconds: number;
}

export interface ServiceDeps extends ServicePorts {
  settings: ServiceSettings;
  counters: GenerationCounters;
  usage: UsageWriter;
  /** Work started by a request and finished after its answer (mail whose timing would tell something). */
  afterAnswer: AfterAnswer;
  /** Inspect results by content hash (DECKFORGE_TEMPLATE_CACHE_MB). */
  inspectResults: InspectResults;
}

export const TOKEN_VALIDITY_MS = 24 * 60 * 60 * 1000;
export const DOWNLOAD_LINK_VALIDITY_MS = 15 * 60 * 1000;
