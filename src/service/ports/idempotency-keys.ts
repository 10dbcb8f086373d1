/**
 * Idempotency keys (docs/http-api.md "Retrying safely: `Idempotency-Key`"): which request of an account first
 * used a key, so that a retry with the same key gets the first answer instead of a second job and a second
 * charge.
 */
export interface IdempotencyEntry {
  accountId: string;
  key: string;
  endpoint: 'generate' | 'create-async';
  /** A hash of what the request asked for (payload and files), to tell a retry from another request. */
  fingerprint: string;
  /** The job the key's request creates (create-async); null for a synchronous request. */
  jobId: string | null;
  /** Unique per claim: a release or a take-over acts only on the claim it names. */
  claimId: string;
  /** ISO time of the claim. */
  createdAt: string;
}

export interface IdempotencyKeys {
  /**
   * Atomically records `entry` unless the account holds the key with a claim made at `notBefore` or later (an
   * older one is replaced). Returns null when `entry` was recorded, else the entry that holds the key.
   */
  claim(entry: IdempotencyEntry, notBefore: Date): Promise<IdempotencyEntry | null>;
  get(accountId: string, key: string): Promise<IdempotencyEntry | null>;
  /** The account is being deleted: its keys go. */
  forgetAccount(accountId: string): Promise<void>;
  /** Gives the key up when it is still held by `claimId` (its request failed: a retry may run it again). */
  release(accountId: string, key: string, claimId: string): Promise<void>;
  /** Replaces the claim `staleClaimId` (its process died before finishing) by `entry`; true when it did. */
  takeOver(entry: IdempotencyEntry, staleClaimId: string): Promise<boolean>;
}
