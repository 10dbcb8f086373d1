/**
 * Sign-in throttling and the hashing gate: failures per account and address, per address and
 * per account slow down, then lock, without locking an owner out from an address they signed in from; a refused
 * attempt never reaches the password hash; at most two hashes run at once, and one address cannot take the queue.
 */
import { describe, expect, it } from 'vitest';
import { MemoryRateLimiter } from '../../../src/adapters/memory/memory-rate-limiter.js';
import { TooManyRequestsError } from '../../../src/service/errors.js';
import { clientNetwork } from '../../../src/service/accounts/client-network.js';
import {
  MAX_HASHING,
  MAX_IN_FLIGHT_PER_ADDRESS,
  MAX_WAITING,
  SignInGuard,
} from '../../../src/service/accounts/sign-in-guard.js';
import { ManualClock } from '../service-harness.js';

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

describe('sign-in throttling per account from one address', () => {
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

  it('attempts made at the same moment from many addresses all count against the account', async () => {
    const { attempt, verified } = setUp();
    const outcomes = await Promise.all(
      Array.from({ length: 32 }, (_, i) => refusal(attempt('eve@example.test', false, `198.18.0.${i}`))),
    );
    expect(outcomes.filter((o) => o === null)).toHaveLength(11); // ten free, the eleventh starts the waiting
    expect(verified()).toBe(11);
  });

  it(`one address has at most ${MAX_IN_FLIGHT_PER_ADDRESS} attempts under way; the rest are refused at once`, async () => {
    const { attempt, verified } = setUp();
    const outcomes = await Promise.all(
      Array.from({ length: 32 }, () => refusal(attempt('eve@example.test'))),
    );
    expect(outcomes.filter((o) => o === null)).toHaveLength(MAX_IN_FLIGHT_PER_ADDRESS);
    expect(outcomes.filter((o) => o === 1)).toHaveLength(32 - MAX_IN_FLIGHT_PER_ADDRESS);
    expect(verified()).toBe(MAX_IN_FLIGHT_PER_ADDRESS);
  });
});

describe('no lock-out of the owner', () => {
  const OWNER_HOME = '198.51.100.10';
  const ATTACKER = '203.0.113.66';

  it("ten wrong passwords from an attacker's address do not lock the owner out from their usual address", async () => {
    const { clock, attempt } = setUp();
    expect(await refusal(attempt('ann@example.test', true, OWNER_HOME))).toBeNull(); // signed in from home before
    for (let failures = 0; failures < 10;) {
      const wait = await refusal(attempt('ann@example.test', false, ATTACKER));
      if (wait === null) failures += 1;
      else clock.advance(wait * 1000);
    }
    expect(await refusal(attempt('ann@example.test', true, ATTACKER))).toBe(900); // the guesser is locked
    expect(await refusal(attempt('ann@example.test', true, OWNER_HOME))).toBeNull(); // the owner is not
    expect(await refusal(attempt('ann@example.test', false, ATTACKER))).toBe(900); // and her success freed nobody
  });

  it('guessers spread over many addresses are throttled per account, except at the owner’s usual address', async () => {
    const { attempt } = setUp();
    expect(await refusal(attempt('ann@example.test', true, OWNER_HOME))).toBeNull();
    const spread: (number | null)[] = [];
    for (let i = 0; i < 40; i++)
      spread.push(await refusal(attempt('ann@example.test', false, `192.0.2.${i}`)));
    expect(spread.filter((o) => o === null)).toHaveLength(11);
    expect(await refusal(attempt('ann@example.test', true, '233.252.0.1'))).toBe(1); // a new address waits
    expect(await refusal(attempt('ann@example.test', true, OWNER_HOME))).toBeNull();
  });

  it('a usual address is one signed in from in the last 30 days', async () => {
    const { clock, attempt } = setUp();
    expect(await refusal(attempt('ann@example.test', true, OWNER_HOME))).toBeNull();
    clock.advance(31 * 24 * 60 * 60 * 1000);
    for (let i = 0; i < 12; i++) await refusal(attempt('ann@example.test', false, `192.0.2.${i}`));
    expect(await refusal(attempt('ann@example.test', true, OWNER_HOME))).toBe(1);
  });

  it('the addresses of one IPv6 /64 count as one address', async () => {
    const { attempt } = setUp();
    for (let i = 0; i < 31; i++)
      expect(
        await refusal(attempt(`user${i}@example.test`, false, `2001:db8:1:2::${i.toString(16)}`)),
      ).toBeNull();
    expect(await refusal(attempt('other@example.test', false, '2001:db8:1:2:ffff:1:2:3'))).toBe(1);
    expect(await refusal(attempt('other@example.test', false, '2001:db8:1:3::1'))).toBeNull();
  });

  it.each([
    ['192.0.2.1', '192.0.2.1'],
    ['::ffff:192.0.2.1', '192.0.2.1'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['2001:DB8:0001:0002:3:4:5:6', '2001:db8:1:2::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['2001:db8:1:2::192.0.2.1', '2001:db8:1:2::/64'],
  ])('%s is counted as %s', (address, network) => {
    expect(clientNetwork(address)).toBe(network);
  });
});

describe('sign-in throttling per client address', () => {
  it('thirty failures over any e-mails are free, then the address waits, whatever e-mail it tries', async () => {
    const { attempt } = setUp();
    for (let i = 0; i < 31; i++) expect(await refusal(attempt(`user${i}@example.test`))).toBeNull();
    expect(await refusal(attempt('someone-else@example.test'))).toBe(1);
    expect(await refusal(attempt('someone-else@example.test', false, '198.51.100.7'))).toBeNull();
  });

  it("a guesser signing in to their own account between bursts keeps the address's failures", async () => {
    const { attempt } = setUp();
    for (let i = 0; i < 25; i++) expect(await refusal(attempt(`victim${i}@example.test`))).toBeNull();
    expect(await refusal(attempt('guesser@example.test', true))).toBeNull();
    for (let i = 25; i < 31; i++) expect(await refusal(attempt(`victim${i}@example.test`))).toBeNull();
    expect(await refusal(attempt('victim-next@example.test'))).toBe(1); // the 31 failures still count
  });

  it('a success forgets only its own count against the account across addresses', async () => {
    const { attempt } = setUp();
    for (let i = 0; i < 8; i++) await refusal(attempt('ann@example.test', false, `192.0.2.${i}`));
    expect(await refusal(attempt('ann@example.test', true, '198.51.100.1'))).toBeNull();
    for (let i = 8; i < 11; i++)
      expect(await refusal(attempt('ann@example.test', false, `192.0.2.${i}`))).toBeNull();
    expect(await refusal(attempt('ann@example.test', false, '192.0.2.99'))).toBe(1);
  });

  it('successful sign-ins from a shared address do not add up to a lock', async () => {
    const { attempt } = setUp();
    for (let i = 0; i < 100; i++)
      expect(await refusal(attempt(`colleague${i}@example.test`, true))).toBeNull();
  });
});

describe('the hashing gate', () => {
  // The tests below run against these constants; docs/security.md ("Password guessing") promises their values.
  it('has the documented sizes: two hashes at once, four attempts per address, 64 waiting per queue', () => {
    expect({ MAX_HASHING, MAX_IN_FLIGHT_PER_ADDRESS, MAX_WAITING }).toEqual({
      MAX_HASHING: 2,
      MAX_IN_FLIGHT_PER_ADDRESS: 4,
      MAX_WAITING: 64,
    });
  });

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

describe('the hashing gate under a flood', () => {
  it('a flood from many addresses does not turn away the owner at their usual address: they go first', async () => {
    const clock = new ManualClock();
    const guard = new SignInGuard(new MemoryRateLimiter(clock));
    const releases: (() => void)[] = [];
    const order: string[] = [];
    const slowCheck = (who: string, correct: boolean) => () =>
      new Promise<boolean>((resolve) =>
        releases.push(() => {
          order.push(who);
          resolve(correct);
        }),
      );
    const home = { email: 'ann@example.test', clientAddress: '198.51.100.10' };
    const signedIn = guard.check(home, slowCheck('owner before', true));
    await new Promise((resolve) => setTimeout(resolve, 10));
    releases.shift()?.();
    expect(await signedIn).toBe(true);

    const flood = Array.from({ length: 150 }, (_, i) =>
      refusal(
        guard.check(
          { email: `u${i}@example.test`, clientAddress: `10.0.${Math.floor(i / 200)}.${i % 200}` },
          slowCheck(`flood ${i}`, false),
        ),
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 10));
    const owner = refusal(guard.check(home, slowCheck('owner', true)));
    await new Promise((resolve) => setTimeout(resolve, 10));
    for (let i = 0; i < 3; i++) {
      releases.shift()?.();
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    expect(await owner).toBeNull();
    expect(order).toEqual(['owner before', 'flood 0', 'flood 1', 'owner']); // next after the two under way
    while (releases.length > 0) {
      releases.shift()?.();
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    const results = await Promise.all(flood);
    expect(results.filter((r) => r === null)).toHaveLength(MAX_HASHING + MAX_WAITING);
  });
});
