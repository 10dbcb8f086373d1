/**
 * What stands between the token endpoint and a password guesser (issue 10). Failed attempts are counted per
 * e-mail address and per client address: they slow down, then lock for a while (429 with Retry-After), and a
 * refused attempt costs no hashing at all. Hashing itself runs at most MAX_HASHING at a time: scrypt occupies a
 * thread of libuv's pool (four by default) and 32 MiB for ~100 ms, and thirty-two at once starved everything
 * else that pool serves (file reads, DNS) — /healthz took 2.4 s. Beyond MAX_WAITING queued attempts the
 * endpoint answers 429 at once.
 */
import { TooManyRequestsError } from './errors.js';
import type { AttemptPolicy, RateLimiter } from './ports/index.js';

/** One person's account: 5 free failures, then 1, 2, 4, 8 s between tries, from the 10th one try per 15 min. */
export const PER_EMAIL: AttemptPolicy = {
  freeFailures: 5,
  firstDelaySeconds: 1,
  lockAfterFailures: 10,
  lockSeconds: 15 * 60,
  forgetAfterSeconds: 60 * 60,
};

/** One client address (a whole office behind NAT may share it): 30 free failures, locked from the 40th. */
export const PER_ADDRESS: AttemptPolicy = {
  freeFailures: 30,
  firstDelaySeconds: 1,
  lockAfterFailures: 40,
  lockSeconds: 15 * 60,
  forgetAfterSeconds: 60 * 60,
};

export const MAX_HASHING = 2;
export const MAX_WAITING = 64;

export interface SignInAttempt {
  email: string;
  clientAddress: string | null;
}

export class SignInGuard {
  private hashing = 0;
  private readonly queue: (() => void)[] = [];

  constructor(private readonly limiter: RateLimiter) {}

  /**
   * Runs `verify` (the password check) for one attempt, if the attempt's e-mail and address may try now;
   * otherwise throws TooManyRequestsError. `verify` resolves to whether the credentials were right.
   */
  async check(attempt: SignInAttempt, verify: () => Promise<boolean>): Promise<boolean> {
    const emailKey = `sign-in:email:${attempt.email.toLowerCase()}`;
    const addressKey = attempt.clientAddress === null ? null : `sign-in:address:${attempt.clientAddress}`;
    if (addressKey !== null) refuseUnless(await this.limiter.attempt(addressKey, PER_ADDRESS));
    const byEmail = await this.limiter.attempt(emailKey, PER_EMAIL);
    if (!byEmail.allowed) {
      if (addressKey !== null) await this.limiter.forgive(addressKey, 'one');
      refuseUnless(byEmail);
    }
    const succeeded = await this.hashingSlot(verify);
    if (succeeded) {
      await this.limiter.forgive(emailKey, 'all');
      if (addressKey !== null) await this.limiter.forgive(addressKey, 'one');
    }
    return succeeded;
  }

  private async hashingSlot<T>(work: () => Promise<T>): Promise<T> {
    if (this.hashing >= MAX_HASHING) {
      if (this.queue.length >= MAX_WAITING) {
        throw new TooManyRequestsError('too many sign-in attempts are in progress; try again in a moment', 1);
      }
      await new Promise<void>((resolve) => this.queue.push(resolve));
    } else {
      this.hashing += 1;
    }
    try {
      return await work();
    } finally {
      const next = this.queue.shift();
      if (next)
        next(); // the slot passes on as it is
      else this.hashing -= 1;
    }
  }
}

function refuseUnless(decision: Awaited<ReturnType<RateLimiter['attempt']>>): void {
  if (decision.allowed) return;
  throw new TooManyRequestsError(
    `too many failed sign-in attempts; try again in ${decision.retryAfterSeconds} s`,
    decision.retryAfterSeconds,
  );
}
