/**
 * The console's server-side sessions. The cookie holds a random id; only its SHA-256 is stored, so a copy of the
 * database opens no session. A session is anonymous (accountId null: it only carries the CSRF token that protects
 * the sign-in and sign-up forms) or signed in.
 */
export interface SessionRecord {
  /** SHA-256 (hex) of the cookie's id. */
  idHash: string;
  accountId: string | null;
  /** What `X-CSRF-Token` must equal on the session's state-changing requests. */
  csrfToken: string;
  /** ISO 8601. */
  createdAt: string;
  lastSeenAt: string;
  /** The absolute end, however active the session is. */
  expiresAt: string;
}

export interface SessionStore {
  create(session: SessionRecord): Promise<void>;
  find(idHash: string): Promise<SessionRecord | null>;
  /** Records activity (the idle expiry counts from it). */
  touch(idHash: string, lastSeenAt: string): Promise<void>;
  delete(idHash: string): Promise<void>;
  /** Ends the account's sessions but `exceptIdHash` (the one changing the password); returns how many. */
  deleteForAccount(accountId: string, exceptIdHash?: string): Promise<number>;
  /** Housekeeping: sessions past their absolute end, or idle since before `idleBefore`. */
  deleteExpired(now: Date, idleBefore: Date): Promise<number>;
}
