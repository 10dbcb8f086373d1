/**
 * Where the Redis tests find Redis: DECKFORGE_TEST_REDIS_URL, else the local server (redis://127.0.0.1:6379)
 * when it answers. Without one these suites skip (one notice line at the top of the run, shared-store notice);
 * under CI=true a missing server is a failure. Each test run uses its own key prefix, so runs never meet.
 * `startPrivateRedis` starts a redis-server of the test's own (free port, AOF in a temp dir) for the tests that
 * stop and restart Redis, which must never touch the machine's shared server.
 * redis-server is always started without libfaketime (see `redisServerEnv`), so under `faketime` (the far-future
 * run) a private Redis keeps the real time, as the shared one does.
 * (No vitest import here: vitest's globalSetup uses it too.)
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort } from './free-port.js';
import { realClockEnv } from './real-clock.js';

export const REDIS_URL_VARIABLE = 'DECKFORGE_TEST_REDIS_URL';
const LOCAL_REDIS = 'redis://127.0.0.1:6379';

async function answers(url: string): Promise<boolean> {
  const client = new Redis(url, {
    connectTimeout: 2_000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    lazyConnect: true,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

/** The server to test against, or null (only outside CI) when none answers. */
export async function testRedisUrl(): Promise<string | null> {
  const given = process.env[REDIS_URL_VARIABLE]?.trim();
  const url = given || LOCAL_REDIS;
  if (await answers(url)) return url;
  if (given || process.env.CI === 'true') {
    throw new Error(`Redis does not answer at ${given ? REDIS_URL_VARIABLE : url}; CI never skips these`);
  }
  return null;
}

/** A key prefix of its own for one test (BullMQ prefix, limiter prefix). */
export function testPrefix(): string {
  return `deckforge-test-${randomBytes(6).toString('hex')}`;
}

/** Deletes every key under `prefix` (SCAN, not KEYS: the server may be shared). */
export async function deleteKeys(url: string, prefix: string): Promise<void> {
  const client = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await client.del(...keys);
    } while (cursor !== '0');
  } finally {
    client.disconnect();
  }
}

export interface PrivateRedis {
  url: string;
  /** SIGKILL: no chance to save; only what the append-only file holds survives. */
  kill(): Promise<void>;
  /** Starts again on the same port and directory. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * redis-server keeps the real time (realClockEnv): under `faketime` every child inherits LD_PRELOAD=libfaketime,
 * and redis-server, linked with jemalloc, then deadlocks before main: its first malloc initialises jemalloc, which
 * calls clock_gettime; libfaketime, not initialised yet, looks up the real functions with dlsym, and a failed
 * lookup (`__ftime`) allocates its error message: malloc re-enters jemalloc, which calls clock_gettime again, and
 * so on until a malloc waits forever on a mutex jemalloc already holds (libfaketime#130, open upstream).
 * Even `faketime -f +0 redis-server --version` never returns; no clock offset is involved.
 */
const redisServerEnv = realClockEnv;

/** Whether the tests can start a Redis of their own; under CI=true a missing binary is a failure, not a skip. */
export function redisServerInstalled(): boolean {
  // Synchronous, at collection time: a redis-server that never exits would stall the whole file with no test
  // timeout to end it, so it gets ten seconds.
  const check = spawnSync('redis-server', ['--version'], {
    stdio: 'ignore',
    env: redisServerEnv(),
    timeout: 10_000,
  });
  if (check.error && 'code' in check.error && check.error.code === 'ETIMEDOUT')
    throw new Error('redis-server --version did not exit within 10 s');
  const installed = check.status === 0;
  if (!installed && process.env.CI === 'true')
    throw new Error('redis-server is not installed; CI never skips these');
  return installed;
}

/** redis-server with `appendonly yes` and `appendfsync always`, the setting docs/operations.md asks for. */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const dir = mkdtempSync(join(tmpdir(), 'deckforge-redis-'));
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | null = null;
  const start = async (): Promise<void> => {
    child = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--save',
        '',
        '--appendonly',
        'yes',
        '--appendfsync',
        'always',
      ],
      { stdio: 'ignore', env: redisServerEnv() },
    );
    for (let i = 0; i < 100; i++) {
      if (await answers(url)) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await kill(); // not left behind, hung or half-started
    throw new Error(`redis-server did not start on port ${port}`);
  };
  const kill = async (): Promise<void> => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGKILL');
    });
  };
  await start();
  return {
    url,
    kill,
    start,
    async stop() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
