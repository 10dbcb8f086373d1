/** Accounts: e-mail (stored lower-case), password and security-key hashes, plan, subscription start. */
export interface AccountRecord {
  id: string;
  email: string;
  passwordHash: string;
  /** SHA-256 (hex) of the security key: the key is random and long, so a fast hash is enough. */
  keyHash: string;
  plan: string;
  /** ISO 8601 date-time; the monthly period resets on its day of the month. */
  subscriptionStart: string;
  createdAt: string;
  /** When the owner followed the confirmation link (accounts made by an operator are confirmed at creation). */
  emailConfirmedAt: string | null;
  /** Set by `deckforge accounts disable`: no sign-in, no token, its tokens refused. */
  disabledAt: string | null;
  passwordChangedAt: string | null;
  /** When the current security key was made. */
  keyCreatedAt: string | null;
}

export interface AccountStore {
  /** Throws AccountExistsError when the e-mail is taken. */
  create(account: AccountRecord): Promise<void>;
  findByEmail(email: string): Promise<AccountRecord | null>;
  findById(id: string): Promise<AccountRecord | null>;
  list(): Promise<AccountRecord[]>;
  count(): Promise<number>;
  /** Returns false when no such account (the same for the setters below). */
  setPlan(id: string, plan: string): Promise<boolean>;
  setKeyHash(id: string, keyHash: string, createdAt: string): Promise<boolean>;
  setPasswordHash(id: string, passwordHash: string, changedAt: string): Promise<boolean>;
  /** Sets emailConfirmedAt unless already set; false when it was (or no such account). */
  confirmEmail(id: string, at: string): Promise<boolean>;
  /** `at` disables, null enables again. */
  setDisabled(id: string, at: string | null): Promise<boolean>;
  /** Removes the account's own record; what other stores keep of it is theirs to forget. */
  delete(id: string): Promise<boolean>;
}

export class AccountExistsError extends Error {
  override readonly name = 'AccountExistsError';
}
