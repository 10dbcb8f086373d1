import { AccountExistsError, type AccountRecord, type AccountStore } from '../../service/ports/index.js';
import type { SqliteDatabase } from './database.js';

interface AccountRow {
  id: string;
  email: string;
  password_hash: string;
  key_hash: string;
  plan: string;
  subscription_start: string;
  created_at: string;
  email_confirmed_at: string | null;
  disabled_at: string | null;
  password_changed_at: string | null;
  key_created_at: string | null;
}

function toRecord(row: AccountRow): AccountRecord {
  return {
    id: row.id,
    email: row.email,
    passwordHash: row.password_hash,
    keyHash: row.key_hash,
    plan: row.plan,
    subscriptionStart: row.subscription_start,
    createdAt: row.created_at,
    emailConfirmedAt: row.email_confirmed_at,
    disabledAt: row.disabled_at,
    passwordChangedAt: row.password_changed_at,
    keyCreatedAt: row.key_created_at,
  };
}

export class SqliteAccountStore implements AccountStore {
  constructor(private readonly db: SqliteDatabase) {}

  async create(account: AccountRecord): Promise<void> {
    try {
      this.db
        .prepare(
          `INSERT INTO accounts (id, email, password_hash, key_hash, plan, subscription_start, created_at,
             email_confirmed_at, disabled_at, password_changed_at, key_created_at)
           VALUES (@id, @email, @passwordHash, @keyHash, @plan, @subscriptionStart, @createdAt,
             @emailConfirmedAt, @disabledAt, @passwordChangedAt, @keyCreatedAt)`,
        )
        .run({ ...account, email: account.email.toLowerCase() });
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
        throw new AccountExistsError(`an account with e-mail ${account.email} already exists`);
      }
      throw error;
    }
  }

  async findByEmail(email: string): Promise<AccountRecord | null> {
    const row = this.db.prepare('SELECT * FROM accounts WHERE email = ?').get(email.trim().toLowerCase()) as
      AccountRow | undefined;
    return row ? toRecord(row) : null;
  }

  async findById(id: string): Promise<AccountRecord | null> {
    const row = this.db.prepare('SELECT * FROM accounts WHERE id = ?').get(id) as AccountRow | undefined;
    return row ? toRecord(row) : null;
  }

  async list(): Promise<AccountRecord[]> {
    const rows = this.db.prepare('SELECT * FROM accounts ORDER BY created_at, email').all() as AccountRow[];
    return rows.map(toRecord);
  }

  async count(): Promise<number> {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM accounts').get() as { n: number }).n;
  }

  async setPlan(id: string, plan: string): Promise<boolean> {
    return this.db.prepare('UPDATE accounts SET plan = ? WHERE id = ?').run(plan, id).changes > 0;
  }

  async setKeyHash(id: string, keyHash: string, createdAt: string): Promise<boolean> {
    return (
      this.db
        .prepare('UPDATE accounts SET key_hash = ?, key_created_at = ? WHERE id = ?')
        .run(keyHash, createdAt, id).changes > 0
    );
  }

  async setPasswordHash(id: string, passwordHash: string, changedAt: string): Promise<boolean> {
    return (
      this.db
        .prepare('UPDATE accounts SET password_hash = ?, password_changed_at = ? WHERE id = ?')
        .run(passwordHash, changedAt, id).changes > 0
    );
  }

  async confirmEmail(id: string, at: string): Promise<boolean> {
    return (
      this.db
        .prepare('UPDATE accounts SET email_confirmed_at = ? WHERE id = ? AND email_confirmed_at IS NULL')
        .run(at, id).changes > 0
    );
  }

  async setDisabled(id: string, at: string | null): Promise<boolean> {
    return this.db.prepare('UPDATE accounts SET disabled_at = ? WHERE id = ?').run(at, id).changes > 0;
  }

  async delete(id: string): Promise<boolean> {
    return this.db.prepare('DELETE FROM accounts WHERE id = ?').run(id).changes > 0;
  }
}
