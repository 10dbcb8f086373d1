/**
 * What the outside (HTTP routes, CLI) may ask of Deckforge. The HTTP layer and the CLI depend on this
 * interface only; `create-service.ts` (the composition root's helper) builds the real implementation from
 * ports. Every method throws the typed errors of `errors.ts` (or an EngineError for template/payload
 * problems, which the caller maps to 400), never a string.
 */
import type { Readable } from 'node:stream';
import type { Warning } from '../engine/index.js';
import type { ConsoleService } from './console-service.js';
import type { GenerationPoolStats } from './ports/generation-pool.js';
import type { RendererStatus } from './ports/renderer.js';
import type { JobProgress, JobState } from './ports/job-store.js';
import type { TemplateService } from './template-service.js';

/** generate_deck's deck: a finished job's id and link, or a queued job (docs/mcp.md). */
export interface StoredDeck {
  jobId: string;
  status: 'SUCCEEDED' | 'QUEUED';
  /** The result's pre-signed link (15 minutes) when SUCCEEDED; null for a queued job. */
  fileUrl: string | null;
  slideCount: number | null;
  warnings: Warning[];
}

/** What render_preview draws: a job's deck by its id, or a stored template by its name or id. */
export type PreviewSource = { deckId: string } | { template: string };

export interface SlidePreviews {
  slides: { index: number; png: Uint8Array }[];
  warnings: Warning[];
}

/**
 * Download links issued by the local-disk blob store point here: `GET ${DOWNLOAD_PATH_PREFIX}<key>/<file
 * name> ?expires=…&signature=…`. The HTTP layer routes `GET /v2.0/files/*` to `openDownload(request.url)`
 * after refusing requests that carry an Authorization header (docs/http-api.md "Asynchronous: `POST
 * /v2.0/generator/create-async`, then poll").
 */
export type OutputFormat = 'pptx' | 'pdf' | 'pptx+pdf';

/** What a generation asks to receive (generation/output-format.ts reads it from a request). */
export interface OutputRequest {
  format: OutputFormat;
  /** Width in pixels of the slide images, when they were asked for; null otherwise. */
  previewWidth: number | null;
}

export const DOWNLOAD_PATH_PREFIX = '/v2.0/files/';

export interface UploadedFile {
  /** The multipart file name, exactly as the client sent it. */
  name: string;
  bytes: Uint8Array;
}

/** One generation request as the transport received it; identical for sync and async. */
export interface GenerationRequest {
  /** The raw `jsonData` string, or an already-parsed JSON value (plain `application/json` bodies). */
  jsonData: string | unknown;
  files: UploadedFile[];
  /** The client's Idempotency-Key header: a retry with the same key and request gets the first answer. */
  idempotencyKey?: string;
  /** create-async only: where to POST the signed status when the job ends (webhook-delivery.ts). */
  callback?: { url: string; linkBase: string | null };
  /** Aborted when the client goes away: a synchronous request then stops its work (ClientGoneError). */
  signal?: AbortSignal;
  /** The deck, its PDF, both, and slide images (output-format.ts); the deck alone when absent. */
  output?: OutputRequest;
}

/**
 * The account a bearer token resolved to, read once per request: the plan and the subscription start that
 * the rate limit, the quota and the usage counters of that request go by.
 */
export interface Account {
  id: string;
  email: string;
  plan: string;
  /** ISO 8601 date-time; the monthly period resets on its day of the month. */
  subscriptionStart: string;
  hasSubscription: boolean;
}

export interface IssuedToken {
  accessToken: string;
  username: string;
  hasSubscription: boolean;
}

/**
 * A .pptx on its way to a client, read from disk rather than held in memory (a deck may be hundreds of
 * megabytes): streamed (HTTP) or read whole (callers that want the bytes). A generated deck's temporary file
 * is removed once it has been read or discarded.
 */
export interface DeckContent {
  byteLength: number;
  /** The bytes, when the content is already in memory (a small deck generated now): sent without a stream. */
  held?: Buffer;
  stream(): Readable;
  bytes(): Promise<Uint8Array>;
  discard(): Promise<void>;
}

export interface GeneratedDeck {
  content: DeckContent;
  /** What `content` holds: the deck, or its PDF when `format=pdf` was asked for. */
  format: 'pptx' | 'pdf';
  /** Without path, with `.pptx` (or `.pdf`). */
  fileName: string;
  slideCount: number;
  warnings: Warning[];
}

export type { JobProgress, JobState };

/** How far a running job is: slide entries written of those asked for, and pages rendered when it renders. */
export interface JobStatus {
  status: JobState;
  errorMessage: string | null;
  /** Absolute pre-signed URL, fresh on every call, when SUCCEEDED; null otherwise. */
  fileUrl: string | null;
  /** Asked for with format=pptx+pdf: the PDF's pre-signed URL once SUCCEEDED (null before); absent otherwise. */
  pdfUrl?: string | null;
  /** Asked for with previews=png: one pre-signed URL per slide image once SUCCEEDED ([] before); absent otherwise. */
  previewUrls?: string[];
  /** The first MAX_JOB_WARNINGS (jobs/job-warnings.ts), and how many there were. */
  warnings: Warning[];
  warningCount: number;
  /** While PROCESSING, how far the job is (null before the first report, and in every other state). */
  progress: JobProgress | null;
  /** Only for a job submitted with a callback_url. */
  webhook?: WebhookDeliveryView;
}

/** A job's webhook as its status shows it (the OpenAPI schema WebhookDelivery). */
export interface WebhookDeliveryView {
  url: string;
  state: 'WAITING' | 'DELIVERING' | 'DELIVERED' | 'GAVE_UP';
  attempts: number;
  last_status: number | null;
  last_error: string | null;
}

/**
 * The scheme, host and port a download link starts with (`https://decks.example.com`), or a function giving
 * it, called only when a link is made (it may throw an error to answer instead).
 */
export type LinkBase = string | (() => string);

export interface UsageReport {
  usedSlideCount: number;
  plan: string;
  allowedSlideCount: number;
  subscriptions: { plan: string; startDate: string; status: 'active' }[];
  /** e.g. "21 December 2026". */
  resetDate: string;
  totalApiCallCount: number;
  successfulApiCallCount: number;
  failedApiCallCount: number;
  previousMonthUsedSlideCount: number;
  /** ISO 8601 date-time. */
  subscriptionStartDate: string;
}

/** A token as the console lists it: never the token itself (only its hash is stored). */
export interface TokenSummary {
  id: string;
  /** Given in the console when it was made; null when none was. */
  name: string | null;
  /** ISO 8601. */
  createdAt: string;
  expiresAt: string;
  lastUsedAt: string | null;
}

export interface CreatedToken {
  id: string;
  /** Shown once. */
  token: string;
  expiresAt: string;
}

export interface ApiCallFigures {
  total: number;
  successful: number;
  failed: number;
}

/** The console's usage: the usage response plus this period's calls, the previous period and slides per day. */
export interface UsageDetail extends UsageReport {
  /** API calls of the current period (the `…ApiCallCount` fields are all-time). */
  apiCalls: ApiCallFigures;
  /** ISO 8601 `start` up to (not including) `end`, the current period's start. */
  previousPeriod: { start: string; end: string; usedSlideCount: number; apiCalls: ApiCallFigures };
  /** Every UTC day from the current period's first to today, days without slides included as 0. */
  perDay: { date: string; slides: number }[];
}

/** A job as the console lists it. */
export interface JobSummary {
  jobId: string;
  state: JobState;
  slideCount: number | null;
  /** ISO 8601. */
  submittedAt: string;
  /** When it succeeded or failed; null while queued or running. */
  finishedAt: string | null;
  errorMessage: string | null;
  /** The first MAX_JOB_WARNINGS (jobs/job-warnings.ts), and how many there were. */
  warnings: Warning[];
  warningCount: number;
  /** A fresh signed link while the result exists. */
  downloadUrl: string | null;
  /** While PROCESSING, how far the job is (null otherwise). */
  progress: JobProgress | null;
}

export interface Download {
  content: DeckContent;
  fileName: string;
}

/** `POST /v1.0/render`: a .pptx made elsewhere, and what to make of it. */
export interface RenderUpload {
  files: UploadedFile[];
  /** `pdf`: the PDF; `png`: a zip of `slide-N.png`, `width` pixels wide. */
  format: 'pdf' | 'png';
  width: number;
  signal?: AbortSignal;
}

/** The answer of a render: one file (the PDF or the zip of slide images). */
export interface RenderedUpload {
  content: DeckContent;
  format: 'pdf' | 'zip';
  fileName: string;
  pageCount: number;
  warnings: Warning[];
}

/** A template to inspect (or draw): uploaded `files`, or `templateUrl` (a URL, or a stored template's name or id). */
export interface TemplateSource {
  files: UploadedFile[];
  templateUrl?: string;
}

/** The console inspector's slide pictures: a PNG of each visible slide (hidden slides get none). */
export interface SlidePictures {
  /** In slide order; `index` is the slide's index as `inspectTemplate` gives it. */
  slides: { index: number; png: Uint8Array }[];
  /** The fonts LibreOffice drew with others (FONT_SUBSTITUTED), as a render reports them. */
  warnings: Warning[];
}

export interface ServiceStats {
  jobsByState: Record<JobState, number>;
  queueDepth: number;
  /** Counters since the process started (sync and async): decks generated, slides, generation seconds. */
  generatedDecks: number;
  generatedSlides: number;
  generationSeconds: number;
  /** The generation threads now: busy, idle, tasks waiting, how long none has been free. */
  workers: GenerationPoolStats;
}

export interface ServiceHealth {
  /** `degraded`: every generation thread has been taken for a while; `unavailable`: a store does not answer. */
  status: 'ok' | 'degraded' | 'unavailable';
  checks: Record<string, boolean>;
  workers: GenerationPoolStats;
  /**
   * Whether PDF and PNG previews can be made here, and why not. Not one of the checks: a service without
   * LibreOffice is healthy, it only refuses previews.
   */
  previews: RendererStatus;
}

export interface DeckforgeService {
  /**
   * Throws MissingCredentialsError (400), InvalidCredentialsError (401), or TooManyRequestsError (429) when
   * the e-mail or the client address has failed too often lately (sign-in-guard.ts).
   */
  issueToken(
    credentials: { username?: string; password?: string; key?: string },
    origin?: { clientAddress?: string },
  ): Promise<IssuedToken>;
  /** Resolves a bearer token (without the `Bearer ` prefix) or throws UnauthorizedError. */
  authenticate(token: string | undefined): Promise<Account>;
  /** Per-account request rate; throws TooManyRequestsError. Called by the transport for each API call. */
  checkRateLimit(account: Account): Promise<void>;
  /** Throws TooManyRequestsError when the account has no slide left this period (before a generation's body is read). */
  checkSlidesLeft(account: Account): Promise<void>;
  /** Counts an API call in the account's totals (successful or failed); written in batches, read exactly by usage. */
  recordApiCall(account: Account, succeeded: boolean): Promise<void>;

  generateNow(account: Account, request: GenerationRequest): Promise<GeneratedDeck>;
  /**
   * The MCP tool generate_deck (docs/mcp.md): `generateNow`, its deck kept as a finished job with a fresh link;
   * a request over the synchronous limit is submitted as a job instead.
   */
  generateStored(account: Account, request: GenerationRequest, baseUrl: LinkBase): Promise<StoredDeck>;
  /** generate_deck's dry run: the refusals and warnings of `generateNow`, nothing produced or charged. */
  checkDeck(
    account: Account,
    request: GenerationRequest,
  ): Promise<{ slideCount: number; warnings: Warning[] }>;
  /** render_preview: PNGs of chosen slides of a job's deck or a stored template, charged as `render` charges. */
  previewSlides(
    account: Account,
    source: PreviewSource,
    slides: number[],
    longSide: number,
  ): Promise<SlidePreviews>;
  submitJob(account: Account, request: GenerationRequest): Promise<{ jobId: string; status: 'QUEUED' }>;
  /** Another account's job and an expired job are NotFoundError, exactly like an unknown id. */
  jobStatus(account: Account, jobId: string, baseUrl: LinkBase): Promise<JobStatus>;
  /** `signedPath` is the request path plus query of a download link. Throws ForbiddenDownloadError. */
  openDownload(signedPath: string): Promise<Download>;
  usage(account: Account): Promise<UsageReport>;
  /** The console's usage page (usage-detail.ts). */
  usageDetail(account: Account): Promise<UsageDetail>;
  /** The account's live tokens, newest first. */
  listTokens(account: Account): Promise<TokenSummary[]>;
  /** A new token for an already signed-in account (the console): the same kind `issueToken` gives. */
  createToken(account: Account, name?: unknown): Promise<CreatedToken>;
  /** Revokes one of the account's tokens; NotFoundError when it has no such live token. */
  revokeToken(account: Account, tokenId: string): Promise<void>;
  /** The account's recent jobs, most recent first. */
  listJobs(account: Account, baseUrl: LinkBase): Promise<JobSummary[]>;
  /** One job as `listJobs` shows it; NotFoundError like `jobStatus`. */
  jobSummary(account: Account, jobId: string, baseUrl: LinkBase): Promise<JobSummary>;
  /** `POST /v1.0/render`: counts the deck's visible slides against the allowance, like generation. */
  render(account: Account, upload: RenderUpload): Promise<RenderedUpload>;
  /** Same result as `deckforge inspect --json`; `files` holds the template, or jsonData-less URL. */
  inspectTemplate(account: Account, source: TemplateSource): Promise<unknown>;
  /**
   * The console inspector's pictures of a template's slides, `width` pixels wide: charged and refused exactly as
   * `render` with `format: 'png'` is (a 400 saying why on a server without LibreOffice).
   */
  slidePictures(
    account: Account,
    source: TemplateSource,
    options: { width: number; signal?: AbortSignal },
  ): Promise<SlidePictures>;
  /** Whether this server can draw previews and slide pictures, and why not; final once the tools were looked for. */
  previewsStatus(): Promise<{ available: boolean; reason?: string }>;

  /** Figures for /metrics, read on each scrape: jobs by state, queue depth, finished jobs' totals. */
  stats(): Promise<ServiceStats>;
  /** Liveness of the parts behind the ports (database, queue, blob store) and of the generation threads. */
  health(): Promise<ServiceHealth>;
  /** The web console's accounts and sessions (console-service.ts); shares this service's sign-in guard. */
  readonly console: ConsoleService;
  /** The account's stored templates (templates/template-service.ts). */
  readonly templates: TemplateService;
  close(): Promise<void>;
}
