/**
 * Sign-in throttling and the hashing gate (issue 10): failures per e-mail and per client address slow down,
 * then lock; a refused attempt never reaches the password hash; at most two hashes run at once.
 */
import { describe, expect, it } from 'vitest';
import { MemoryRateLimiter } from '../../src/adapters/memory/memory-rate-limiter.js';
import { TooManyRequestsError } from '../../src/service/errors.js';
import { MAX_HASHING, MAX_WAITING, SignInGuard } from '../../src/service/sign-in-guard.js';
import { ManualClock } from './service-harness.js';

function setUp() {
  const clock = new ManualClock();
  const guard = new SignInGuard(new MemoryRateLimiter(clock));
  let verified = 0;
  const attempt = (email: string, correct = false, clientAddress: string | null = '192.0.2.1') =>
    guard.check({ email, clientAddress }, async () => {
      verified += 1;
      return correct;
    });
  return { clock, guard, attempt, verified: () => verified };
}

async function refusal(promise: Promise<unknown>): Promise<number | null> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (error === null) return null;
  expect(error).toBeInstanceOf(TooManyRequestsError);
  return (error as TooManyRequestsError).retryAfterSeconds;
}

describe('sign-in throttling per e-mail', () => {
  it('five failures are free, then each waits longer, and from the tenth one try per 15 minutes', async () => {
    const { clock, attempt, verified } = setUp();
    for (let i = 0; i < 5; i++) expect(await refusal(attempt('ann@example.test'))).toBeNull();
    const waits: number[] = [];
    for (let failure = 6; failure <= 10; failure++) {
      clock.advance((waits[waits.length - 1] ?? 0) * 1000);
      expect(await refusal(attempt('ann@example.test'))).toBeNull(); // allowed once the wait has passed
      waits.push((await refusal(attempt('ann@example.test'))) ?? 0);
    }
    expect(waits).toEqual([1, 2, 4, 8, 900]);
    expect(verified()).toBe(10); // refused attempts were never hashed
    expect(await refusal(attempt('ANN@example.test', true))).toBe(900); // locked: the right password waits too
    clock.advance(900 * 1000);
    expect(await refusal(attempt('ann@example.test', true))).toBeNull();
    expect(await refusal(attempt('ann@example.test'))).toBeNull(); // the success forgot the failures
    expect(verified()).toBe(12);
  });

  it('a success forgets the failures; an hour without failures forgets them too', async () => {
    const { clock, attempt } = setUp();
    for (let i = 0; i < 6; i++) await attempt('bob@example.test');
    expect(await refusal(attempt('bob@example.test'))).toBe(1);
    clock.advance(60 * 60 * 1000);
    for (let i = 0; i < 5; i++) expect(await refusal(attempt('bob@example.test'))).toBeNull();
    expect(await refusal(attempt('bob@example.test', true))).toBeNull();
    for (let i = 0; i < 5; i++) expect(await refusal(attempt('bob@example.test'))).toBeNull();
  });

  it('attempts made at the same moment all count', async () => {
    const { attempt, verified } = setUp();
    const outcomes = await Promise.all(
      Array.from({ length: 32 }, () => refusal(attempt('eve@example.test'))),
    );
    expect(outcomes.filter((o) => o === null)).toHaveLength(6); // five free, the sixth starts the waiting
    expect(verified()).toBe(6);
  });
});

describe('sign-in throttling per client address', () => {
  it('thirty failures over any e-mails are free, then the address waits, whatever e-mail it tries', async () => {
    const { attempt } = setUp();
    for (let i = 0; i < 31; i++) expect(await refusal(attempt(`user${i}@example.test`))).toBeNull();
    expect(await refusal(attempt('someone-else@example.test'))).toBe(1);
    expect(await refusal(attempt('someone-else@example.test', false, '198.51.100.7'))).toBeNull();
  });

  it('successful sign-ins from a shared address do not add up to a lock', async () => {
    const { attempt } = setUp();
    for (let i = 0; i < 100; i++)
      expect(await refusal(attempt(`colleague${i}@example.test`, true))).toBeNull();
  });
});

describe('the hashing gate', () => {
  it(`runs at most ${MAX_HASHING} password checks at once and refuses beyond ${MAX_WAITING} waiting`, async () => {
    const clock = new ManualClock();
    const guard = new SignInGuard(new MemoryRateLimiter(clock));
    let running = 0;
    let most = 0;
    const releases: (() => void)[] = [];
    const slowCheck = () =>
      new Promise<boolean>((resolve) => {
        running += 1;
        most = Math.max(most, running);
        releases.push(() => {
          running -= 1;
          resolve(false);
        });
      });
    const total = MAX_HASHING + MAX_WAITING + 3;
    const outcomes = Array.from({ length: total }, (_, i) =>
      refusal(guard.check({ email: `u${i}@example.test`, clientAddress: `203.0.113.${i % 200}` }, slowCheck)),
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(running).toBe(MAX_HASHING);
    while (releases.length > 0) {
      releases.shift()?.();
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    const results = await Promise.all(outcomes);
    expect(most).toBe(MAX_HASHING);
    expect(results.filter((r) => r === 1)).toHaveLength(3); // "in a moment": Retry-After 1
    expect(results.filter((r) => r === null)).toHaveLength(MAX_HASHING + MAX_WAITING);
  });
});
