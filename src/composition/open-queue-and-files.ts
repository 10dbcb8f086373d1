/**
 * Picks the job queue, the rate limiter and the blob store: BullMQ and a Redis limiter when DECKFORGE_REDIS_URL
 * is set, S3 when DECKFORGE_S3_BUCKET is; otherwise the one-machine adapters (the SQLite queue in the data
 * directory's database, limits in memory, files on local disk behind our signed links). The Redis and S3 adapters
 * are loaded only when configured: their libraries (BullMQ, ioredis, the AWS SDK) take about a second of CPU to
 * load, which a service on its embedded default never needs.
 */
import type { Logger } from 'pino';
import { LocalDiskBlobStore } from '../adapters/local-disk/local-disk-blob-store.js';
import { MemoryRateLimiter } from '../adapters/memory/memory-rate-limiter.js';
import type { SqliteDatabase } from '../adapters/sqlite/database.js';
import { SqliteJobQueue } from '../adapters/sqlite/sqlite-job-queue.js';
import type { Config } from '../config/index.js';
import type { BlobStore, Clock, JobQueue, JobStore, RateLimiter } from '../service/ports/index.js';

export interface QueueAndLimiter {
  queue: JobQueue;
  rateLimiter: RateLimiter;
  /** Whether the queue's store answers (null: the queue lives in the database, which reports itself). */
  queuePing: (() => Promise<boolean>) | null;
  /** Closes the Redis connections (after the queue itself is closed). */
  close(): void;
}

export async function openQueueAndLimiter(
  config: Config,
  clock: Clock,
  jobs: JobStore,
  db: SqliteDatabase,
  logger: Logger,
): Promise<QueueAndLimiter> {
  if (!config.redis) {
    return {
      queue: new SqliteJobQueue(db, clock),
      rateLimiter: new MemoryRateLimiter(clock),
      queuePing: null,
      close: () => undefined,
    };
  }
  const [{ BullMqJobQueue }, { openRedis }, { RedisRateLimiter }] = await Promise.all([
    import('../adapters/bullmq/bullmq-job-queue.js'),
    import('../adapters/redis/redis-connections.js'),
    import('../adapters/redis/redis-rate-limiter.js'),
  ]);
  const { url, prefix } = config.redis;
  // Reconnection attempts are logged once per error kind at warn; commands fail fast meanwhile.
  const onError = (error: Error) =>
    logger.warn({ err: { message: error.message } }, 'Redis connection error');
  const commands = openRedis(url, 'commands', onError);
  const worker = openRedis(url, 'worker', onError);
  const queue = new BullMqJobQueue({
    connection: commands,
    workerConnection: worker,
    clock,
    accountOf: async (jobId) => (await jobs.get(jobId))?.accountId ?? null,
    prefix,
  });
  return {
    queue,
    rateLimiter: new RedisRateLimiter(commands, clock, prefix),
    queuePing: () => queue.ping(),
    close() {
      commands.disconnect();
      worker.disconnect();
    },
  };
}

export async function openBlobStore(config: Config): Promise<BlobStore> {
  if (!config.s3) return new LocalDiskBlobStore(config.dataDir, config.linkSecret);
  const { S3BlobStore } = await import('../adapters/s3/s3-blob-store.js');
  return new S3BlobStore({
    bucket: config.s3.bucket,
    region: config.s3.region,
    endpoint: config.s3.endpoint,
    forcePathStyle: config.s3.forcePathStyle,
  });
}
