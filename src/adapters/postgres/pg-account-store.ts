import { AccountExistsError, type AccountRecord, type AccountStore } from '../../service/ports/index.js';
import { iso, isoOf, type PgDatabase } from './pg-database.js';

interface AccountRow {
  id: string;
  email: string;
  password_hash: string;
  key_hash: string;
  plan: string;
  subscription_start: Date;
  created_at: Date;
  email_confirmed_at: Date | null;
  disabled_at: Date | null;
  password_changed_at: Date | null;
  key_created_at: Date | null;
}

function toRecord(row: AccountRow): AccountRecord {
  return {
    id: row.id,
    email: row.email,
    passwordHash: row.password_hash,
    keyHash: row.key_hash,
    plan: row.plan,
    subscriptionStart: isoOf(row.subscription_start),
    createdAt: isoOf(row.created_at),
    emailConfirmedAt: iso(row.email_confirmed_at),
    disabledAt: iso(row.disabled_at),
    passwordChangedAt: iso(row.password_changed_at),
    keyCreatedAt: iso(row.key_created_at),
  };
}

export class PgAccountStore implements AccountStore {
  constructor(private readonly db: PgDatabase) {}

  async create(a: AccountRecord): Promise<void> {
    const inserted = await this.db.query(
      `INSERT INTO accounts (id, email, password_hash, key_hash, plan, subscription_start, created_at,
         email_confirmed_at, disabled_at, password_changed_at, key_created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (email) DO NOTHING`,
      [
        a.id,
        a.email.toLowerCase(),
        a.passwordHash,
        a.keyHash,
        a.plan,
        a.subscriptionStart,
        a.createdAt,
        a.emailConfirmedAt,
        a.disabledAt,
        a.passwordChangedAt,
        a.keyCreatedAt,
      ],
    );
    if (inserted.rowCount === 0)
      throw new AccountExistsError(`an account with e-mail ${a.email} already exists`);
  }

  async findByEmail(email: string): Promise<AccountRecord | null> {
    const { rows } = await this.db.query<AccountRow>('SELECT * FROM accounts WHERE email = $1', [
      email.trim().toLowerCase(),
    ]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async findById(id: string): Promise<AccountRecord | null> {
    const { rows } = await this.db.query<AccountRow>('SELECT * FROM accounts WHERE id = $1', [id]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async list(): Promise<AccountRecord[]> {
    const { rows } = await this.db.query<AccountRow>('SELECT * FROM accounts ORDER BY created_at, email');
    return rows.map(toRecord);
  }

  async count(): Promise<number> {
    const { rows } = await this.db.query<{ n: number }>('SELECT COUNT(*)::int AS n FROM accounts');
    return rows[0]?.n ?? 0;
  }

  async setPlan(id: string, plan: string): Promise<boolean> {
    return this.update('UPDATE accounts SET plan = $2 WHERE id = $1', [id, plan]);
  }

  async setKeyHash(id: string, keyHash: string, createdAt: string): Promise<boolean> {
    return this.update('UPDATE accounts SET key_hash = $2, key_created_at = $3 WHERE id = $1', [
      id,
      keyHash,
      createdAt,
    ]);
  }

  async setPasswordHash(id: string, passwordHash: string, changedAt: string): Promise<boolean> {
    return this.update('UPDATE accounts SET password_hash = $2, password_changed_at = $3 WHERE id = $1', [
      id,
      passwordHash,
      changedAt,
    ]);
  }

  async confirmEmail(id: string, at: string): Promise<boolean> {
    return this.update(
      'UPDATE accounts SET email_confirmed_at = $2 WHERE id = $1 AND email_confirmed_at IS NULL',
      [id, at],
    );
  }

  async setDisabled(id: string, at: string | null): Promise<boolean> {
    return this.update('UPDATE accounts SET disabled_at = $2 WHERE id = $1', [id, at]);
  }

  async delete(id: string): Promise<boolean> {
    return this.update('DELETE FROM accounts WHERE id = $1', [id]);
  }

  private async update(sql: string, params: unknown[]): Promise<boolean> {
    return ((await this.db.query(sql, params)).rowCount ?? 0) > 0;
  }
}
