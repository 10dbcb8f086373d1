/** Bearer tokens, stored only as SHA-256 hashes so a database leak yields no usable token. */
export interface TokenRecord {
  tokenHash: string;
  accountId: string;
  /** ISO 8601. */
  issuedAt: string;
  expiresAt: string;
}

export interface TokenStore {
  save(token: TokenRecord): Promise<void>;
  /** The token if it exists and was not revoked; expiry is the caller's check (with its Clock). */
  find(tokenHash: string): Promise<TokenRecord | null>;
  /** Revokes every token of the account; returns how many. */
  revokeAll(accountId: string): Promise<number>;
  /** The account is being deleted: its tokens go, revoked or not. */
  forgetAccount(accountId: string): Promise<void>;
  /** Housekeeping: forgets tokens that expired before `before`. */
  deleteExpired(before: Date): Promise<number>;
}
