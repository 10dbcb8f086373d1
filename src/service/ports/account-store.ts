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
}

export interface AccountStore {
  /** Throws AccountExistsError when the e-mail is taken. */
  create(account: AccountRecord): Promise<void>;
  findByEmail(email: string): Promise<AccountRecord | null>;
  findById(id: string): Promise<AccountRecord | null>;
  list(): Promise<AccountRecord[]>;
  count(): Promise<number>;
  /** Returns false when no such account. */
  setPlan(id: string, plan: string): Promise<boolean>;
  setKeyHash(id: string, keyHash: string): Promise<boolean>;
}

export class AccountExistsError extends Error {
  override readonly name = 'AccountExistsError';
}
