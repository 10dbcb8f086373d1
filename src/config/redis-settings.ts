/**
 * The shared queue (docs/operations.md): DECKFORGE_REDIS_URL selects BullMQ on Redis for the job queue and a
 * Redis-backed request-rate limiter shared by every node; unset, both stay in this process (SQLite queue,
 * in-memory limits).
 */
import { ConfigError } from './config-error.js';
import type { Env } from './env-values.js';

export interface RedisSettings {
  /** DECKFORGE_REDIS_URL: redis://[user:password@]host:port[/db] or rediss:// (TLS). */
  url: string;
  /** DECKFORGE_REDIS_PREFIX, default "deckforge": key prefix, so several deployments can share one Redis. */
  prefix: string;
}

export function loadRedisSettings(env: Env): RedisSettings | null {
  const url = env.DECKFORGE_REDIS_URL?.trim();
  const prefix = env.DECKFORGE_REDIS_PREFIX?.trim() || 'deckforge';
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(prefix)) {
    throw new ConfigError(
      `DECKFORGE_REDIS_PREFIX must be 1 to 64 letters, digits, ".", "_" or "-", got "${prefix}"`,
    );
  }
  if (!url) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError('DECKFORGE_REDIS_URL must be a URL like redis://host:6379 (or rediss:// for TLS)');
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    // The URL may hold a password: name the scheme only.
    throw new ConfigError(
      `DECKFORGE_REDIS_URL must start with redis:// or rediss://, got "${parsed.protocol}//…"`,
    );
  }
  return { url, prefix };
}
