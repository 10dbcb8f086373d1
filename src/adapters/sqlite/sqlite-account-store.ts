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
  };
}

export class SqliteAccountStore implements AccountStore {
  constructor(private readonly db: SqliteDatabase) {}

  async create(account: AccountRecord): Promise<void> {
    try {
      this.db
        .prepare(
          `INSERT INTO accounts (id, email, password_hash, key_hash, plan, subscription_start, created_at)
           VALUES (@id, @email, @passwordHash, @keyHash, @plan, @subscriptionStart, @createdAt)`,
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

  async setKeyHash(id: string, keyHash: string): Promise<boolean> {
    return this.db.prepare('UPDATE accounts SET key_hash = ? WHERE id = ?').run(keyHash, id).changes > 0;
  }
}
