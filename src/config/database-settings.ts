/**
 * The shared database (docs/operations.md): DECKFORGE_DATABASE_URL selects PostgreSQL for accounts, tokens,
 * usage, jobs, webhooks, idempotency keys and the console's sessions; unset, they stay in the data
 * directory's SQLite file.
 */
import { ConfigError } from './config-error.js';
import { integer, type Env } from './env-values.js';

export interface DatabaseSettings {
  /** DECKFORGE_DATABASE_URL: postgres://user:password@host:port/database (libpq's URL form). */
  url: string;
  /** DECKFORGE_DATABASE_POOL_SIZE, default 10: connections this process opens at most. */
  poolSize: number;
  /** DECKFORGE_DATABASE_TIMEOUT_SECONDS, default 15: the longest a statement may run (the connect wait is 5 s). */
  statementTimeoutMs: number;
}

export function loadDatabaseSettings(env: Env): DatabaseSettings | null {
  const url = env.DECKFORGE_DATABASE_URL?.trim();
  if (!url) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError(
      'DECKFORGE_DATABASE_URL must be a URL like postgres://user:password@host:5432/deckforge',
    );
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    // The URL may hold a password: name the scheme only.
    throw new ConfigError(`DECKFORGE_DATABASE_URL must start with postgres://, got "${parsed.protocol}//…"`);
  }
  return {
    url,
    poolSize: integer(env, 'DECKFORGE_DATABASE_POOL_SIZE', 10, 1, 500),
    statementTimeoutMs: integer(env, 'DECKFORGE_DATABASE_TIMEOUT_SECONDS', 15, 1, 3600) * 1000,
  };
}

/** The URL with its password replaced by `***`, for messages and logs. */
export function redactedDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres://…';
  }
}
