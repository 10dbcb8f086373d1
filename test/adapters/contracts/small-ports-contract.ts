/** Contracts of the small ports: PasswordHasher and RateLimiter. */
import { describe, expect, it } from 'vitest';
import type { PasswordHasher, RateLimiter } from '../../../src/service/ports/index.js';

export function describePasswordHasherContract(name: string, make: () => PasswordHasher): void {
  describe(`PasswordHasher contract: ${name}`, () => {
    it('verifies the right password only, salts every hash, and never stores the password', async () => {
      const hasher = make();
      const a = await hasher.hash('correct horse battery');
      const b = await hasher.hash('correct horse battery');
      expect(a).not.toBe(b);
      expect(a).not.toContain('correct horse battery');
      expect(await hasher.verify('correct horse battery', a)).toBe(true);
      expect(await hasher.verify('correct horse battery', b)).toBe(true);
      expect(await hasher.verify('correct horse batterY', a)).toBe(false);
      expect(await hasher.verify('', a)).toBe(false);
      expect(await hasher.verify('x', 'not a stored hash')).toBe(false);
    });
  });
}

export interface RateHarness {
  limiter: RateLimiter;
  advance(ms: number): void;
}

export function describeRateLimiterContract(name: string, make: () => RateHarness): void {
  describe(`RateLimiter contract: ${name}`, () => {
    it('allows the limit per minute and per key, then refuses with a retry time, then allows again', async () => {
      const { limiter, advance } = make();
      for (let i = 0; i < 5; i++) expect((await limiter.hit('a', 5)).allowed).toBe(true);
      const refused = await limiter.hit('a', 5);
      expect(refused.allowed).toBe(false);
      if (!refused.allowed) expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect((await limiter.hit('b', 5)).allowed).toBe(true);
      advance(60_000);
      expect((await limiter.hit('a', 5)).allowed).toBe(true);
    });

    it('remembers a key for the time given, and only that key', async () => {
      const { limiter, advance } = make();
      expect(await limiter.remembers('ann|192.0.2.1')).toBe(false);
      await limiter.remember('ann|192.0.2.1', 60);
      expect(await limiter.remembers('ann|192.0.2.1')).toBe(true);
      expect(await limiter.remembers('ann|192.0.2.2')).toBe(false);
      advance(59_000);
      expect(await limiter.remembers('ann|192.0.2.1')).toBe(true);
      advance(1_000);
      expect(await limiter.remembers('ann|192.0.2.1')).toBe(false);
    });

    it('slows sign-in attempts after the free failures, then locks, and forgives one or all', async () => {
      const { limiter, advance } = make();
      const policy = {
        freeFailures: 2,
        firstDelaySeconds: 1,
        lockAfterFailures: 5,
        lockSeconds: 60,
        forgetAfterSeconds: 3600,
      };
      const retry = async (key = 'ann@example.com') => {
        const d = await limiter.attempt(key, policy);
        return d.allowed ? 0 : d.retryAfterSeconds;
      };
      for (let i = 0; i < 3; i++) expect(await retry()).toBe(0); // two free failures, and the attempt after them
      expect(await retry()).toBe(1); // three failures: wait 1 s
      advance(1_000);
      expect(await retry()).toBe(0);
      expect(await retry()).toBe(2); // four: the wait doubles
      advance(2_000);
      expect(await retry()).toBe(0);
      expect(await retry()).toBe(60); // five: locked
      expect(await retry('bob@example.com')).toBe(0); // another key is not touched
      await limiter.forgive('ann@example.com', 'one');
      expect(await retry()).toBe(2); // four failures again
      await limiter.forgive('ann@example.com', 'all');
      expect(await retry()).toBe(0);
      advance(3_600_000); // failures are forgotten an hour after the last one
      for (let i = 0; i < 3; i++) expect(await retry('bob@example.com')).toBe(0);
    });
  });
}
