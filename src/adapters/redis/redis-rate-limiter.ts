/**
 * Request rates and sign-in attempts in Redis, so the limits hold across every API node. Each decision is one
 * Lua script (atomic on the server: two nodes counting the same key at once never both take the last slot).
 * Times come from the service clock, passed in as an argument, so every node decides on the same rules as the
 * in-memory limiter (memory-rate-limiter.ts); Redis expiry only clears keys nobody needs any more.
 *
 * Keys, under `<prefix>:rl:`: `hit:<window start>:<key>` (a count per one-minute window), `fail:<key>` (a hash of
 * failures and the time of the last), `known:<key>` (when a remembered key expires).
 */
import type { Redis } from 'ioredis';
import type { AttemptPolicy, Clock, RateDecision, RateLimiter } from '../../service/ports/index.js';
import { onRedis } from './redis-unavailable.js';

const WINDOW_MS = 60_000;

/** KEYS[1] window counter; ARGV: limit, ms until the window ends. Returns 0 (allowed) or the ms to wait. */
const HIT = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count >= tonumber(ARGV[1]) then return tonumber(ARGV[2]) end
redis.call('INCR', KEYS[1])
if count == 0 then redis.call('PEXPIRE', KEYS[1], 2 * 60000) end
return 0`;

/**
 * KEYS[1] failures hash; ARGV: now, freeFailures, firstDelayMs, lockAfterFailures, lockMs, forgetMs.
 * Returns 0 (allowed, counted as a failure) or the ms to wait.
 */
const ATTEMPT = `
local now = tonumber(ARGV[1])
local free, first, lockAfter = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local lock, forget = tonumber(ARGV[5]), tonumber(ARGV[6])
local count = tonumber(redis.call('HGET', KEYS[1], 'count') or '0')
local last = tonumber(redis.call('HGET', KEYS[1], 'last') or '0')
if count > 0 and now - last >= forget then count = 0 end
if count > 0 then
  local wait = 0
  if count >= lockAfter then wait = lock
  elseif count > free then wait = math.min(first * 2 ^ (count - free - 1), lock) end
  if now < last + wait then return last + wait - now end
end
redis.call('HSET', KEYS[1], 'count', count + 1, 'last', now)
redis.call('PEXPIRE', KEYS[1], math.max(forget, lock))
return 0`;

/** KEYS[1] failures hash: takes one failure back. */
const FORGIVE_ONE = `
local count = tonumber(redis.call('HGET', KEYS[1], 'count') or '0')
if count <= 1 then redis.call('DEL', KEYS[1]) else redis.call('HINCRBY', KEYS[1], 'count', -1) end
return 0`;

export class RedisRateLimiter implements RateLimiter {
  private readonly base: string;

  constructor(
    private readonly redis: Redis,
    private readonly clock: Clock,
    prefix = 'deckforge',
  ) {
    this.base = `${prefix}:rl:`;
  }

  async hit(key: string, limitPerMinute: number): Promise<RateDecision> {
    const now = this.clock.now().getTime();
    const start = now - (now % WINDOW_MS);
    const waitMs = Number(
      await onRedis(() =>
        this.redis.eval(HIT, 1, `${this.base}hit:${start}:${key}`, limitPerMinute, start + WINDOW_MS - now),
      ),
    );
    return decision(waitMs);
  }

  async attempt(key: string, policy: AttemptPolicy): Promise<RateDecision> {
    const waitMs = Number(
      await onRedis(() =>
        this.redis.eval(
          ATTEMPT,
          1,
          `${this.base}fail:${key}`,
          this.clock.now().getTime(),
          policy.freeFailures,
          policy.firstDelaySeconds * 1000,
          policy.lockAfterFailures,
          policy.lockSeconds * 1000,
          policy.forgetAfterSeconds * 1000,
        ),
      ),
    );
    return decision(waitMs);
  }

  async forgive(key: string, scope: 'all' | 'one'): Promise<void> {
    const failures = `${this.base}fail:${key}`;
    if (scope === 'all') await onRedis(() => this.redis.del(failures));
    else await onRedis(() => this.redis.eval(FORGIVE_ONE, 1, failures));
  }

  async remember(key: string, seconds: number): Promise<void> {
    const until = this.clock.now().getTime() + seconds * 1000;
    await onRedis(() =>
      this.redis.set(`${this.base}known:${key}`, String(until), 'PX', Math.max(1, seconds * 1000)),
    );
  }

  async remembers(key: string): Promise<boolean> {
    const until = await onRedis(() => this.redis.get(`${this.base}known:${key}`));
    return until !== null && Number(until) > this.clock.now().getTime();
  }
}

function decision(waitMs: number): RateDecision {
  if (waitMs <= 0) return { allowed: true };
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
}
