/**
 * Which combinations of stores make a working service (docs/operations.md). Each store is chosen on its own — the
 * database (DECKFORGE_DATABASE_URL), the queue (DECKFORGE_REDIS_URL), the files (DECKFORGE_S3_BUCKET) — but
 * a half-shared set-up would lose jobs or files between nodes, so `serve` and `worker` refuse to start on one,
 * saying why (`migrate` and `accounts` need only the database, and run on any combination):
 *
 * - nothing shared: the one-machine default (SQLite, in-process queue, local disk);
 * - S3 alone: still one machine, its inputs and results kept in the bucket;
 * - database + queue + S3: several API nodes and workers;
 * - anything else is refused.
 */
import type { Config } from './config.js';
import { ConfigError } from './config-error.js';

export interface StoreChoices {
  /** PostgreSQL (DECKFORGE_DATABASE_URL) instead of the data directory's SQLite file. */
  sharedDatabase: boolean;
  /** BullMQ on Redis (DECKFORGE_REDIS_URL) instead of the in-process queue. */
  sharedQueue: boolean;
  /** S3 (DECKFORGE_S3_BUCKET) instead of the data directory's files. */
  sharedFiles: boolean;
}

/** Throws ConfigError naming what is missing and why it matters; returns when the combination works. */
export function refuseHalfSharedStores({ sharedDatabase, sharedQueue, sharedFiles }: StoreChoices): void {
  if (sharedQueue && !sharedDatabase) {
    throw new ConfigError(
      'DECKFORGE_REDIS_URL (a queue shared by several nodes) needs DECKFORGE_DATABASE_URL: with job records in ' +
        "this machine's SQLite file, a worker on another node would take a job whose record it cannot read",
    );
  }
  if (sharedDatabase && !sharedQueue) {
    throw new ConfigError(
      'DECKFORGE_DATABASE_URL (records shared by several nodes) needs DECKFORGE_REDIS_URL: the in-process ' +
        "queue lives in this machine's SQLite file, so workers on other nodes would never see a job accepted here",
    );
  }
  if (sharedDatabase && sharedQueue && !sharedFiles) {
    throw new ConfigError(
      'DECKFORGE_DATABASE_URL and DECKFORGE_REDIS_URL (several nodes) need DECKFORGE_S3_BUCKET: job inputs and ' +
        "results on one machine's disk cannot be read by a worker or an API node on another",
    );
  }
}

/** The combination `config` chooses, refused as `refuseHalfSharedStores` says. */
export function refuseHalfSharedConfig(config: Pick<Config, 'database' | 'redis' | 's3'>): void {
  refuseHalfSharedStores({
    sharedDatabase: config.database !== null,
    sharedQueue: config.redis !== null,
    sharedFiles: config.s3 !== null,
  });
}
