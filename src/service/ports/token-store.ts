/** Bearer tokens, stored only as SHA-256 hashes so a database leak yields no usable token. */
export interface TokenRecord {
  /** A short random id that names the token in listings and revocation; not derived from the token. */
  id: string;
  /** What its owner called it in the console ("CI pipeline"); null for tokens from `POST /v1.0/token/create`. */
  name: string | null;
  tokenHash: string;
  accountId: string;
  /** ISO 8601. */
  issuedAt: string;
  expiresAt: string;
  /** When a request last authenticated with it (written at most once a minute), null when never. */
  lastUsedAt: string | null;
}

export interface TokenStore {
  save(token: TokenRecord): Promise<void>;
  /** The token if it exists and was not revoked; expiry is the caller's check (with its Clock). */
  find(tokenHash: string): Promise<TokenRecord | null>;
  /** The account's tokens that are neither revoked nor expired at `now`, newest first. */
  listLive(accountId: string, now: Date): Promise<TokenRecord[]>;
  /** Revokes one token of the account by id; false when the account has no such live token. */
  revoke(accountId: string, id: string): Promise<boolean>;
  /**
   * Records a use at `at`, unless one at or after `unlessSince` is already recorded: a busy token costs one
   * write per interval, and two processes racing write once.
   */
  touch(tokenHash: string, at: Date, unlessSince: Date): Promise<void>;
  /** Revokes every token of the account; returns how many. */
  revokeAll(accountId: string): Promise<number>;
  /** The account is being deleted: its tokens go, revoked or not. */
  forgetAccount(accountId: string): Promise<void>;
  /** Housekeeping: forgets tokens that expired before `before`. */
  deleteExpired(before: Date): Promise<number>;
}
