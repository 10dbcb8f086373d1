/**
 * Links that work once: address confirmation and password reset. Only the SHA-256 of the token is stored; the
 * token itself exists in the e-mail alone.
 */
export type OneTimePurpose = 'confirm-email' | 'reset-password';

export interface OneTimeTokenRecord {
  /** SHA-256 (hex) of the token in the link. */
  tokenHash: string;
  accountId: string;
  purpose: OneTimePurpose;
  /** ISO 8601. */
  createdAt: string;
  expiresAt: string;
  /** Set when the link was used; null while it can still be. */
  usedAt: string | null;
}

export interface OneTimeTokenStore {
  create(token: OneTimeTokenRecord): Promise<void>;
  find(tokenHash: string): Promise<OneTimeTokenRecord | null>;
  /** Marks the token used at `at`; false when it was used already (two clicks racing: only one wins). */
  markUsed(tokenHash: string, at: string): Promise<boolean>;
  /** The account is being deleted: its links go. */
  forgetAccount(accountId: string): Promise<void>;
  /** Housekeeping: forgets tokens that expired before `before`. */
  deleteExpired(before: Date): Promise<number>;
}
