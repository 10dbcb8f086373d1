import { afterAll, describe, expect, it } from 'vitest';
import { openRedis } from '../../../src/adapters/redis/redis-connections.js';
import { RedisRateLimiter } from '../../../src/adapters/redis/redis-rate-limiter.js';
import type { Redis } from 'ioredis';
import {
  deleteKeys,
  REDIS_URL_VARIABLE,
  testPrefix,
  testRedisUrl,
} from '../../support/servers/redis-server.js';
import { describeRateLimiterContract } from '../contracts/small-ports-contract.js';

const redisUrl = await testRedisUrl();
const connections: Redis[] = [];
const prefixes: string[] = [];
afterAll(async () => {
  for (const c of connections) c.disconnect();
  if (redisUrl) for (const prefix of prefixes) await deleteKeys(redisUrl, prefix);
});

/** A limiter on a connection of its own (one node), under `prefix`. */
function node(url: string, prefix: string, now: () => number): RedisRateLimiter {
  const connection = openRedis(url, 'commands');
  connections.push(connection);
  return new RedisRateLimiter(connection, { now: () => new Date(now()) }, prefix);
}

if (redisUrl) {
  describeRateLimiterContract('Redis', () => {
    let now = Date.parse('2026-11-21T10:00:30.000Z');
    const prefix = testPrefix();
    prefixes.push(prefix);
    return { limiter: node(redisUrl, prefix, () => now), advance: (ms) => (now += ms) };
  });
} else {
  describe.skip(`RateLimiter contract: Redis (no Redis: set ${REDIS_URL_VARIABLE})`, () => {
    it('runs with Redis', () => undefined);
  });
}

describe.skipIf(!redisUrl)('Redis rate limiter across nodes', () => {
  it('50 requests at once over three nodes against a limit of 10: exactly 10 pass', async () => {
    const prefix = testPrefix();
    prefixes.push(prefix);
    const now = () => Date.parse('2026-11-21T10:00:30.000Z');
    const nodes = [0, 1, 2].map(() => node(redisUrl ?? '', prefix, now));
    const decisions = await Promise.all(
      Array.from({ length: 50 }, (_, i) => nodes[i % 3]!.hit('account-1', 10)),
    );
    expect(decisions.filter((d) => d.allowed)).toHaveLength(10);
    // Sign-in failures counted on one node slow the next attempt on another.
    const policy = {
      freeFailures: 0,
      firstDelaySeconds: 5,
      lockAfterFailures: 10,
      lockSeconds: 60,
      forgetAfterSeconds: 600,
    };
    expect((await nodes[0]!.attempt('ann@example.com', policy)).allowed).toBe(true);
    expect(await nodes[1]!.attempt('ann@example.com', policy)).toEqual({
      allowed: false,
      retryAfterSeconds: 5,
    });
    await nodes[2]!.remember('ann|192.0.2.1', 60);
    expect(await nodes[0]!.remembers('ann|192.0.2.1')).toBe(true);
  });
});
