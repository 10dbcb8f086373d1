export type { Clock } from './clock.js';
export type { PasswordHasher } from './password-hasher.js';
export type { AccountRecord, AccountStore } from './account-store.js';
export { AccountExistsError } from './account-store.js';
export type { TokenRecord, TokenStore } from './token-store.js';
export type {
  ReserveRequest,
  ReserveOutcome,
  PeriodUsage,
  ApiCallCounts,
  ApiCallIncrement,
  Settlement,
  DaySlides,
  UsageWrites,
  UsageLedger,
} from './usage-ledger.js';
export type { AttemptPolicy, RateDecision, RateLimiter } from './rate-limiter.js';
export type { JobRecord, JobOutcome, JobProgress, JobState, JobStore } from './job-store.js';
export type { ClaimedJob, RecoveredJobs, JobQueue } from './job-queue.js';
export type { JobEvents } from './job-events.js';
export type { SignedLinkRequest, VerifiedLink, BlobStore, BlobReader } from './blob-store.js';
export type { ByteBudget, FetchLimits, TemplateFetcher } from './template-fetcher.js';
export { FetchBudgetError, FetchError } from './template-fetcher.js';
export type {
  GenerationTask,
  GenerationPool,
  GenerationPoolStats,
  PayloadCheckTask,
  PayloadReading,
  PayloadSource,
} from './generation-pool.js';
export {
  GenerationCancelledError,
  GenerationPoolClosedError,
  GenerationTimeoutError,
} from './generation-pool.js';
export type { ServiceLogger } from './service-logger.js';
export type { IdempotencyEntry, IdempotencyKeys } from './idempotency-keys.js';
export { SILENT_LOGGER } from './service-logger.js';
export type {
  WebhookAttemptOutcome,
  WebhookDeliveryRecord,
  WebhookState,
  WebhookStore,
} from './webhook-store.js';
export type { WebhookSender } from './webhook-sender.js';
export type { Renderer, RenderRequest, RenderResult, RendererStatus } from './renderer.js';
export {
  MAX_FONT_LOOKUPS,
  RenderCancelledError,
  RendererLostError,
  RenderFailedError,
  RenderTimeoutError,
  RendererUnavailableError,
} from './renderer.js';
export type { MailMessage, Mailer } from './mailer.js';
export { MailDeliveryError } from './mailer.js';
export type { SessionRecord, SessionStore } from './session-store.js';
export type { OneTimePurpose, OneTimeTokenRecord, OneTimeTokenStore } from './one-time-token-store.js';
export { StoreUnavailableError } from './store-errors.js';
export type {
  TemplateAddition,
  TemplateHoldings,
  TemplateLimits,
  TemplateRecord,
  TemplateStore,
} from './template-store.js';
export { limitExceeded, TemplateLimitError } from './template-store.js';
