/**
 * Redis connections for the queue and the rate limiter. Commands fail within seconds when Redis is away (a
 * connect and a command timeout, few retries), so an outage surfaces as an error instead of a hang; the worker's
 * connection follows BullMQ's rule (`maxRetriesPerRequest: null`: its commands wait for a reconnect).
 */
import { Redis } from 'ioredis';

export type RedisRole = 'commands' | 'worker';

export function openRedis(url: string, role: RedisRole, onError?: (error: Error) => void): Redis {
  const redis = new Redis(url, {
    connectTimeout: 5_000,
    lazyConnect: false,
    ...(role === 'worker'
      ? { maxRetriesPerRequest: null }
      : { maxRetriesPerRequest: 2, commandTimeout: 5_000 }),
    // Reconnect forever, backing off to 2 s: Redis restarts are expected and the service recovers by itself.
    retryStrategy: (times: number) => Math.min(2_000, 50 * times),
  });
  // Connection errors also reject the commands waiting on them; the event itself is only worth a log line.
  redis.on('error', (error: Error) => onError?.(error));
  return redis;
}
