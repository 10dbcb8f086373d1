/**
 * The queue's own cost per job, without any generation: enqueue N jobs, then claim and acknowledge
 * each, one consumer, against the in-process SQLite queue and BullMQ on Redis.
 *
 *   npm run build && node bench/queue/overhead.js [--jobs 500] [--redis redis://127.0.0.1:6379]
 *
 * Redis keys go under a prefix of their own and are deleted afterwards.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BullMqJobQueue } from '../../dist/adapters/bullmq/bullmq-job-queue.js';
import { openRedis } from '../../dist/adapters/redis/redis-connections.js';
import { databasePath, openDatabase } from '../../dist/adapters/sqlite/database.js';
import { SqliteJobQueue } from '../../dist/adapters/sqlite/sqlite-job-queue.js';

const arg = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1] : fallback;
};
const jobs = Number(arg('jobs', '500'));
const redisUrl = arg('redis', process.env.DECKFORGE_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
const clock = { now: () => new Date() };

async function measure(name, queue) {
  const ids = Array.from({ length: jobs }, (_, i) => `job-${i}`);
  let started = performance.now();
  for (const id of ids) await queue.enqueue(id);
  const enqueueMs = performance.now() - started;
  started = performance.now();
  let done = 0;
  for (let claimed = await queue.claim(30_000, 5); claimed; claimed = await queue.claim(30_000, 5)) {
    await queue.ack(claimed.jobId);
    done += 1;
  }
  const claimAckMs = performance.now() - started;
  if (done !== jobs) throw new Error(`${name}: ${done} of ${jobs} jobs came back`);
  const per = (ms) => (ms / jobs).toFixed(2);
  console.log(
    `${name.padEnd(22)} enqueue ${per(enqueueMs)} ms/job, claim+ack ${per(claimAckMs)} ms/job, ` +
      `total ${per(enqueueMs + claimAckMs)} ms/job (${jobs} jobs)`,
  );
}

const dir = mkdtempSync(join(tmpdir(), 'deckforge-bench-queue-'));
const db = openDatabase(databasePath(dir));
try {
  await measure('in-process (SQLite)', new SqliteJobQueue(db, clock));
} finally {
  db.close();
  rmSync(dir, { recursive: true, force: true });
}

const prefix = `deckforge-bench-${randomBytes(4).toString('hex')}`;
const commands = openRedis(redisUrl, 'commands');
const worker = openRedis(redisUrl, 'worker');
const queue = new BullMqJobQueue({
  connection: commands,
  workerConnection: worker,
  clock,
  accountOf: async (id) => `account-${Number(id.slice(4)) % 3}`,
  prefix,
});
try {
  await measure('BullMQ (Redis)', queue);
} finally {
  await queue.close();
  let cursor = '0';
  do {
    const [next, keys] = await commands.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    cursor = next;
    if (keys.length > 0) await commands.del(...keys);
  } while (cursor !== '0');
  commands.disconnect();
  worker.disconnect();
}
