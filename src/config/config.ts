/**
 * The only reader of `process.env` (config is read once, validated with a readable error, and passed
 * down frozen). Every variable is documented in docs/configuration.md.
 */
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { ConfigError } from './config-error.js';
import { loadDatabaseSettings, type DatabaseSettings } from './database-settings.js';
import { boolean, integer, type Env } from './env-values.js';
import { loadGenerationSettings } from './generation-settings.js';
import { loadMailSettings, type MailSettings } from './mail-settings.js';
import { metricsToken, trustedHosts, trustProxy } from './network-settings.js';
import { loadPlanCatalog, type PlanCatalog } from './plans.js';
import { loadRenderSettings, type RenderSettings } from './render-settings.js';
import { loadRedisSettings, type RedisSettings } from './redis-settings.js';
import { loadS3Settings, type S3Settings } from './s3-settings.js';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config {
  /** PORT, default 8080. */
  port: number;
  /** HOST, default 127.0.0.1: only this machine can reach a fresh install; set 0.0.0.0 in a container. */
  host: string;
  /** DECKFORGE_DATA_DIR, default ./data (absolute here): SQLite file, stored results, link secret. */
  dataDir: string;
  /** DECKFORGE_PLANS (a JSON file) or the built-in plans. */
  plans: PlanCatalog;
  /** DECKFORGE_ALLOW_PRIVATE_URLS, default false: template URLs may resolve to loopback/private addresses. */
  allowPrivateUrls: boolean;
  /** DECKFORGE_PUBLIC_URL: base URL for download links; null = derived from each request's trusted Host. */
  publicBaseUrl: string | null;
  /** DECKFORGE_TRUSTED_HOSTS: Host names (`name` or `name:port`) a download link may be built from. */
  trustedHosts: readonly string[];
  /** DECKFORGE_TRUST_PROXY, default false: which proxies' X-Forwarded-* headers are believed. */
  trustProxy: boolean | number | readonly string[];
  /** DECKFORGE_METRICS_TOKEN: bearer token /metrics asks for; null = /metrics is open. */
  metricsToken: string | null;
  /** DECKFORGE_JOB_RETENTION_HOURS, default 24: a job and its files are deleted this long after submission. */
  jobRetentionHours: number;
  limits: RequestLimits;
  /** DECKFORGE_WORKERS, default: the machine's available parallelism. */
  workers: number;
  /**
   * DECKFORGE_GENERATION_MEMORY_MB, default 512: the memory budget of one generation (the V8 heap of its worker
   * thread); a deck that needs more fails with a message naming this setting (generation-settings.ts).
   */
  generationMemoryMb: number;
  /**
   * DECKFORGE_TEMPLATE_CACHE_MB, default 256: memory this process keeps parsed templates in (shared out among the
   * generation threads, each with its own cache) and inspect results (composition/template-cache-budget.ts);
   * 0 keeps none.
   */
  templateCacheMb: number;
  /**
   * DECKFORGE_FETCH_TIMEOUT_SECONDS, default 20: the time all the URLs of one request or job have to download,
   * together (each URL's own timeout too).
   */
  fetchTimeoutMs: number;
  /** DECKFORGE_GENERATION_TIMEOUT_SECONDS, default 120: a generation running longer is stopped. */
  generationTimeoutMs: number;
  /** DECKFORGE_SHUTDOWN_TIMEOUT_SECONDS, default 8: how long SIGTERM waits for running work. */
  shutdownTimeoutMs: number;
  /** DECKFORGE_LINK_SECRET: HMAC key for download links; default a random secret kept in the data dir. */
  linkSecret: string | null;
  /** DECKFORGE_LOG_LEVEL (or LOG_LEVEL), default info. */
  logLevel: LogLevel;
  /** DECKFORGE_RENDERERS, DECKFORGE_RENDER_*: the PDF and PNG preview renderer (render-settings.ts). */
  rendering: RenderSettings;
  /** DECKFORGE_SMTP_URL, DECKFORGE_MAIL_FROM, DECKFORGE_SIGNUP, DECKFORGE_MAIL_LOG: the console's mails and sign-up. */
  mail: MailSettings;
  /** DECKFORGE_REDIS_URL (+ prefix): BullMQ queue and shared rate limits; null = in this process. */
  redis: RedisSettings | null;
  /** DECKFORGE_S3_BUCKET (+ endpoint, region, path style): job files in S3; null = the data directory. */
  s3: S3Settings | null;
  /** DECKFORGE_DATABASE_URL (+ pool size, timeout): PostgreSQL for the stores; null = SQLite in the data dir. */
  database: DatabaseSettings | null;
}

export interface RequestLimits {
  /** DECKFORGE_MAX_UPLOAD_MB, default 50: the request body / any uploaded file, and a fetched template. */
  maxUploadBytes: number;
  /** DECKFORGE_MAX_FILES_PER_REQUEST, default 50. */
  maxFilesPerRequest: number;
  /** DECKFORGE_MAX_SLIDES_PER_REQUEST, default 5000. */
  maxSlidesPerRequest: number;
  /** DECKFORGE_SYNC_MAX_SLIDES, default 1000: larger decks must use the asynchronous endpoint. */
  syncMaxSlides: number;
  /** DECKFORGE_MAX_IMAGE_MEGAPIXELS, default 50: width × height of any one picture, checked on its header. */
  maxImagePixels: number;
  /** DECKFORGE_MAX_IMAGE_MB, default 25: bytes of any one picture (uploaded, fetched or in a data: URI). */
  maxImageBytes: number;
  /** DECKFORGE_FETCH_CONCURRENCY, default 4: URLs of one request fetched at once. */
  fetchConcurrency: number;
  /** DECKFORGE_MAX_FETCH_MB, default 100: bytes all the URLs of one request or job may download together. */
  maxFetchBytes: number;
  /**
   * DECKFORGE_SYNC_GENERATIONS_PER_ACCOUNT, default half the generation threads (at least 1): synchronous
   * generations one account may run at once; its others wait their turn, so one account cannot take every thread.
   */
  syncGenerationsPerAccount: number;
}

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function publicUrl(env: Env): string | null {
  const raw = env.DECKFORGE_PUBLIC_URL?.trim();
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`DECKFORGE_PUBLIC_URL must be an absolute http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`DECKFORGE_PUBLIC_URL must use http or https, got "${raw}"`);
  }
  return raw.replace(/\/+$/, '');
}

function logLevel(env: Env): LogLevel {
  const raw = (env.DECKFORGE_LOG_LEVEL ?? env.LOG_LEVEL ?? 'info').trim().toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(raw)) {
    throw new ConfigError(`DECKFORGE_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${raw}"`);
  }
  return raw as LogLevel;
}

/** Reads and validates the settings; throws ConfigError naming the first bad variable. */
export function loadConfig(env: Env = process.env, cwd: string = process.cwd()): Readonly<Config> {
  const secret = env.DECKFORGE_LINK_SECRET?.trim();
  if (secret !== undefined && secret !== '' && secret.length < 32) {
    throw new ConfigError('DECKFORGE_LINK_SECRET must be at least 32 characters long');
  }
  const generation = loadGenerationSettings(env);
  const host = env.HOST?.trim() || '127.0.0.1';
  const workers = integer(env, 'DECKFORGE_WORKERS', Math.max(1, availableParallelism()), 1, 256);
  const publicBaseUrl = publicUrl(env);
  const config: Config = {
    port: integer(env, 'PORT', 8080, 0, 65_535),
    host,
    dataDir: resolve(cwd, env.DECKFORGE_DATA_DIR?.trim() || './data'),
    plans: loadPlanCatalog(env.DECKFORGE_PLANS?.trim() || undefined),
    allowPrivateUrls: boolean(env, 'DECKFORGE_ALLOW_PRIVATE_URLS', false),
    publicBaseUrl,
    trustedHosts: trustedHosts(env, host),
    trustProxy: trustProxy(env),
    metricsToken: metricsToken(env),
    jobRetentionHours: integer(env, 'DECKFORGE_JOB_RETENTION_HOURS', 24, 1, 24 * 365),
    limits: {
      maxUploadBytes: integer(env, 'DECKFORGE_MAX_UPLOAD_MB', 50, 1, 4096) * 1024 * 1024,
      maxFilesPerRequest: integer(env, 'DECKFORGE_MAX_FILES_PER_REQUEST', 50, 1, 10_000),
      maxSlidesPerRequest: integer(env, 'DECKFORGE_MAX_SLIDES_PER_REQUEST', 5000, 1, 1_000_000),
      syncMaxSlides: integer(env, 'DECKFORGE_SYNC_MAX_SLIDES', 1000, 1, 1_000_000),
      maxImagePixels: generation.maxImagePixels,
      maxImageBytes: generation.maxImageBytes,
      fetchConcurrency: integer(env, 'DECKFORGE_FETCH_CONCURRENCY', 4, 1, 64),
      maxFetchBytes: integer(env, 'DECKFORGE_MAX_FETCH_MB', 100, 1, 65_536) * 1024 * 1024,
      syncGenerationsPerAccount: integer(
        env,
        'DECKFORGE_SYNC_GENERATIONS_PER_ACCOUNT',
        Math.max(1, Math.floor(workers / 2)),
        1,
        1024,
      ),
    },
    workers,
    generationMemoryMb: generation.memoryMb,
    templateCacheMb: integer(env, 'DECKFORGE_TEMPLATE_CACHE_MB', 256, 0, 65_536),
    fetchTimeoutMs: integer(env, 'DECKFORGE_FETCH_TIMEOUT_SECONDS', 20, 1, 600) * 1000,
    generationTimeoutMs: integer(env, 'DECKFORGE_GENERATION_TIMEOUT_SECONDS', 120, 1, 86_400) * 1000,
    shutdownTimeoutMs: integer(env, 'DECKFORGE_SHUTDOWN_TIMEOUT_SECONDS', 8, 0, 3600) * 1000,
    linkSecret: secret || null,
    logLevel: logLevel(env),
    rendering: loadRenderSettings(env),
    mail: loadMailSettings(env, { host, publicBaseUrl }),
    redis: loadRedisSettings(env),
    s3: loadS3Settings(env),
    database: loadDatabaseSettings(env),
  };
  return deepFreeze(config);
}

/**
 * Builds a config for tests and embedding: defaults, then `overrides`, frozen. Reads no environment but PATH,
 * where the renderer finds LibreOffice: a program's location is the machine's, not a setting.
 */
export function configWith(
  overrides: Partial<Omit<Config, 'limits' | 'rendering' | 'mail'>> & {
    limits?: Partial<RequestLimits>;
    rendering?: Partial<RenderSettings>;
    mail?: Partial<MailSettings>;
  },
): Readonly<Config> {
  const base = loadConfig({ PATH: process.env.PATH });
  return deepFreeze({
    ...base,
    ...overrides,
    limits: { ...base.limits, ...overrides.limits },
    rendering: { ...base.rendering, ...overrides.rendering },
    mail: { ...base.mail, ...overrides.mail },
  });
}

function deepFreeze<T extends object>(value: T): Readonly<T> {
  for (const inner of Object.values(value)) {
    if (inner !== null && typeof inner === 'object' && !Object.isFrozen(inner)) deepFreeze(inner as object);
  }
  return Object.freeze(value);
}
