/**
 * The line corpus-notice.ts prints when the shared-store suites will skip: which server is missing, what enables
 * it. The topology test (test/cluster) starts a PostgreSQL and a Redis of its own, so it needs their programs
 * installed rather than a server answering.
 */
import { installedPostgres } from './postgres-server.js';
import { REDIS_URL_VARIABLE, redisServerInstalled, testRedisUrl } from './redis-server.js';
import { DATABASE_URL_VARIABLE, testPostgresUrl } from './shared-stores.js';

export async function sharedStoreNotice(): Promise<string | null> {
  const missing: string[] = [];
  if ((await testPostgresUrl()) === null) missing.push(`PostgreSQL (set ${DATABASE_URL_VARIABLE})`);
  if ((await testRedisUrl()) === null) missing.push(`Redis (set ${REDIS_URL_VARIABLE})`);
  const programs: string[] = [];
  if (installedPostgres() === null) programs.push('postgresql');
  if (!redisServerInstalled()) programs.push('redis-server');
  const parts: string[] = [];
  if (missing.length > 0) parts.push(`skipping the suites that need ${missing.join(', ')}`);
  if (programs.length > 0)
    parts.push(`skipping test/cluster, which starts servers of its own (install ${programs.join(' and ')})`);
  return parts.length === 0 ? null : `shared stores not reachable: ${parts.join('; ')}`;
}
