/**
 * `npm run cluster`: the scaled-out topology on this machine with real processes (test/support/servers/local-cluster.ts):
 * two API nodes behind a round-robin balancer and two workers, on PostgreSQL, Redis and an S3 server (s3rver)
 * started here. PostgreSQL and Redis are the local servers unless DECKFORGE_TEST_DATABASE_URL and
 * DECKFORGE_TEST_REDIS_URL name others; the cluster gets a database and a key prefix of its own, removed with
 * everything else at Ctrl-C.
 *
 *   npm run cluster [-- --api 2 --workers 2]
 */
import { startLocalCluster } from '../test/support/servers/local-cluster.js';
import { testRedisUrl } from '../test/support/servers/redis-server.js';
import { testPostgresUrl } from '../test/support/servers/shared-stores.js';

const arg = (name: string, fallback: number): number => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};

const postgresUrl = await testPostgresUrl();
const redisUrl = await testRedisUrl();
if (!postgresUrl || !redisUrl) {
  console.error(
    'npm run cluster needs PostgreSQL and Redis: start them on 127.0.0.1 (5432, 6379), or name them with ' +
      'DECKFORGE_TEST_DATABASE_URL and DECKFORGE_TEST_REDIS_URL.',
  );
  process.exit(1);
}
console.log('Starting: building if needed, migrating, then the API nodes and workers …');
const cluster = await startLocalCluster({
  postgresUrl,
  redisUrl,
  apiNodes: arg('api', 2),
  workers: arg('workers', 2),
  env: { DECKFORGE_LOG_LEVEL: process.env.DECKFORGE_LOG_LEVEL ?? 'info' },
});
const lines = [
  '',
  `Deckforge cluster is up. Send requests to the balancer: ${cluster.url}`,
  ...cluster.processes.map((p) => `  ${p.name.padEnd(9)} pid ${String(p.pid).padEnd(7)} ${p.url ?? ''}`),
  `  database  ${cluster.databaseUrl}`,
  `  redis     ${redisUrl} (keys under ${cluster.redisPrefix}:)`,
  `  s3        ${cluster.s3.endpoint} (bucket ${cluster.s3.bucket})`,
  `  logs      ${cluster.dir}/<process>.log`,
  '',
  'An account (shown only now):',
  `  e-mail:       ${cluster.account.email}`,
  `  password:     ${cluster.account.password}`,
  `  security key: ${cluster.account.key}`,
  '',
  'Ctrl-C stops every process and removes the database, the keys and the files.',
];
console.log(lines.join('\n'));
await new Promise<void>((resolve) => {
  process.once('SIGINT', resolve);
  process.once('SIGTERM', resolve);
});
console.log('\nStopping …');
await cluster.stop();
