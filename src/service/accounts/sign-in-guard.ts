/**
 * What stands between the token endpoint and a password guesser (docs/security.md "Password guessing").
 * Failed attempts are counted under three keys, each slowing down and then locking for a while (429 with
 * Retry-After); a refused attempt costs no hashing at all:
 * - an account from one client network (PER_ACCOUNT_AND_ADDRESS): a guesser at one address;
 * - a client network over all accounts (PER_ADDRESS): one address trying many accounts;
 * - an account over all networks (PER_ACCOUNT): guessers spread over many addresses. This one does not apply to
 *   a network the account has signed in from within RECOGNISED_SECONDS, so that nobody can lock an owner out
 *   from their usual address by failing on purpose elsewhere (docs/security.md, "Password guessing").
 * Hashing runs at most MAX_HASHING at a time: scrypt occupies a thread of libuv's pool (four by default) and
 * 32 MiB for ~100 ms, and thirty-two at once starved everything else that pool serves (file reads, DNS). One
 * network has at most MAX_IN_FLIGHT_PER_ADDRESS attempts under way; attempts from a recognised network go before
 * the others (a flood from many addresses cannot turn the owner away), and beyond MAX_WAITING waiting attempts
 * the endpoint answers 429 at once.
 */
import { clientNetwork } from './client-network.js';
import { TooManyRequestsError } from '../errors.js';
import type { AttemptPolicy, RateLimiter } from '../ports/index.js';

/** One account from one network: 5 free failures, then 1, 2, 4, 8 s between tries, from the 10th one per 15 min. */
export const PER_ACCOUNT_AND_ADDRESS: AttemptPolicy = {
  freeFailures: 5,
  firstDelaySeconds: 1,
  lockAfterFailures: 10,
  lockSeconds: 15 * 60,
  forgetAfterSeconds: 60 * 60,
};

/** One client network (a whole office behind NAT may share it): 30 free failures, locked from the 40th. */
export const PER_ADDRESS: AttemptPolicy = {
  freeFailures: 30,
  firstDelaySeconds: 1,
  lockAfterFailures: 40,
  lockSeconds: 15 * 60,
  forgetAfterSeconds: 60 * 60,
};

/** One account from networks it has not signed in from: 10 free failures, locked from the 20th. */
export const PER_ACCOUNT: AttemptPolicy = {
  freeFailures: 10,
  firstDelaySeconds: 1,
  lockAfterFailures: 20,
  lockSeconds: 15 * 60,
  forgetAfterSeconds: 60 * 60,
};

/** A network an account signed in from stays its "usual" one for 30 days after the last success. */
export const RECOGNISED_SECONDS = 30 * 24 * 60 * 60;

export const MAX_HASHING = 2;
export const MAX_WAITING = 64;
/** Enough for a few people behind one office NAT signing in together; one client cannot take the queue. */
export const MAX_IN_FLIGHT_PER_ADDRESS = 4;

export interface SignInAttempt {
  email: string;
  clientAddress: string | null;
}

export class SignInGuard {
  private hashing = 0;
  /** Waiting attempts from networks their account has signed in from, served first; then the others. */
  private readonly recognisedQueue: (() => void)[] = [];
  private readonly queue: (() => void)[] = [];
  private readonly inFlight = new Map<string, number>();

  constructor(private readonly limiter: RateLimiter) {}

  /**
   * Runs `verify` (the password check) for one attempt, if the attempt's account and network may try now;
   * otherwise throws TooManyRequestsError. `verify` resolves to whether the credentials were right.
   */
  async check(attempt: SignInAttempt, verify: () => Promise<boolean>): Promise<boolean> {
    const network = attempt.clientAddress === null ? null : clientNetwork(attempt.clientAddress);
    const flightKey = network ?? 'unknown';
    const under = this.inFlight.get(flightKey) ?? 0;
    if (network !== null && under >= MAX_IN_FLIGHT_PER_ADDRESS) {
      throw new TooManyRequestsError(
        'too many sign-in attempts from your address are in progress',
        1,
        'THROTTLED',
      );
    }
    this.inFlight.set(flightKey, under + 1);
    try {
      return await this.throttled(attempt.email.toLowerCase(), network, verify);
    } finally {
      const left = (this.inFlight.get(flightKey) ?? 1) - 1;
      if (left === 0) this.inFlight.delete(flightKey);
      else this.inFlight.set(flightKey, left);
    }
  }

  private async throttled(
    email: string,
    network: string | null,
    verify: () => Promise<boolean>,
  ): Promise<boolean> {
    const pairKey = `sign-in:account-address:${email}|${network ?? 'unknown'}`;
    const addressKey = network === null ? null : `sign-in:address:${network}`;
    const accountKey = `sign-in:account:${email}`;
    const recognisedKey = `sign-in:recognised:${email}|${network ?? 'unknown'}`;
    const recognised = await this.limiter.remembers(recognisedKey);
    // Each key counts this attempt as a failure once allowed; a later refusal takes the earlier counts back.
    const counted: string[] = [];
    const keys: [string, AttemptPolicy][] = [
      ...(addressKey === null ? [] : [[addressKey, PER_ADDRESS] as [string, AttemptPolicy]]),
      [pairKey, PER_ACCOUNT_AND_ADDRESS],
      ...(recognised ? [] : [[accountKey, PER_ACCOUNT] as [string, AttemptPolicy]]),
    ];
    for (const [key, policy] of keys) {
      const decision = await this.limiter.attempt(key, policy);
      if (!decision.allowed) {
        for (const earlier of counted) await this.limiter.forgive(earlier, 'one');
        throw new TooManyRequestsError(
          `too many failed sign-in attempts; try again in ${decision.retryAfterSeconds} s`,
          decision.retryAfterSeconds,
          'THROTTLED',
        );
      }
      counted.push(key);
    }
    const succeeded = await this.hashingSlot(recognised, verify).catch(async (error: unknown) => {
      // Turned away (a full queue) or the check itself failed: no password was tried, so nothing counts.
      for (const key of counted) await this.limiter.forgive(key, 'one');
      throw error;
    });
    if (succeeded) {
      await this.limiter.forgive(pairKey, 'all');
      // Only this attempt's count: others' failures against the account, or from the address, still stand.
      for (const key of counted) if (key !== pairKey) await this.limiter.forgive(key, 'one');
      await this.limiter.remember(recognisedKey, RECOGNISED_SECONDS);
    }
    return succeeded;
  }

  private async hashingSlot<T>(recognised: boolean, work: () => Promise<T>): Promise<T> {
    if (this.hashing >= MAX_HASHING) {
      const queue = recognised ? this.recognisedQueue : this.queue;
      if (queue.length >= MAX_WAITING) {
        throw new TooManyRequestsError(
          'too many sign-in attempts are in progress; try again in a moment',
          1,
          'THROTTLED',
        );
      }
      await new Promise<void>((resolve) => queue.push(resolve));
    } else {
      this.hashing += 1;
    }
    try {
      return await work();
    } finally {
      const next = this.recognisedQueue.shift() ?? this.queue.shift();
      if (next)
        next(); // the slot passes on as it is
      else this.hashing -= 1;
    }
  }
}
