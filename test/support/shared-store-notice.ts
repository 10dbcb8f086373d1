/** The line corpus-notice.ts prints when the shared-store suites will skip: which server is missing, what enables it. */
import { REDIS_URL_VARIABLE, testRedisUrl } from './redis-server.js';
import { DATABASE_URL_VARIABLE, testPostgresUrl } from './shared-stores.js';

export async function sharedStoreNotice(): Promise<string | null> {
  const missing: string[] = [];
  if ((await testPostgresUrl()) === null) missing.push(`PostgreSQL (set ${DATABASE_URL_VARIABLE})`);
  if ((await testRedisUrl()) === null) missing.push(`Redis (set ${REDIS_URL_VARIABLE})`);
  if (missing.length === 0) return null;
  return `shared stores not reachable: skipping the suites that need ${missing.join(', ')}`;
}
