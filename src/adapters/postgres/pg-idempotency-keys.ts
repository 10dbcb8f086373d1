/**
 * Idempotency keys in PostgreSQL. A claim is one statement: insert, or replace a holder older than `notBefore`
 * (ON CONFLICT … DO UPDATE … WHERE); when neither happened, the holder is read back. Two nodes claiming the same
 * key at once: the unique key serialises them, exactly one records its entry.
 */
import type { IdempotencyEntry, IdempotencyKeys } from '../../service/ports/index.js';
import { isoOf, type PgDatabase } from './pg-database.js';

interface KeyRow {
  account_id: string;
  key: string;
  endpoint: IdempotencyEntry['endpoint'];
  fingerprint: string;
  job_id: string | null;
  claim_id: string;
  created_at: Date;
}

const toEntry = (row: KeyRow): IdempotencyEntry => ({
  accountId: row.account_id,
  key: row.key,
  endpoint: row.endpoint,
  fingerprint: row.fingerprint,
  jobId: row.job_id,
  claimId: row.claim_id,
  createdAt: isoOf(row.created_at),
});

const COLUMNS = 'account_id, key, endpoint, fingerprint, job_id, claim_id, created_at';

const values = (e: IdempotencyEntry): unknown[] => [
  e.accountId,
  e.key,
  e.endpoint,
  e.fingerprint,
  e.jobId,
  e.claimId,
  e.createdAt,
];

export class PgIdempotencyKeys implements IdempotencyKeys {
  constructor(private readonly db: PgDatabase) {}

  async claim(entry: IdempotencyEntry, notBefore: Date): Promise<IdempotencyEntry | null> {
    for (;;) {
      const recorded = await this.db.query(
        `INSERT INTO idempotency_keys AS k (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (account_id, key) DO UPDATE SET endpoint = excluded.endpoint,
           fingerprint = excluded.fingerprint, job_id = excluded.job_id, claim_id = excluded.claim_id,
           created_at = excluded.created_at
         WHERE k.created_at < $8`,
        [...values(entry), notBefore],
      );
      if ((recorded.rowCount ?? 0) > 0) return null;
      const holder = await this.get(entry.accountId, entry.key);
      // Released between the two statements: claim again.
      if (holder) return holder;
    }
  }

  async get(accountId: string, key: string): Promise<IdempotencyEntry | null> {
    const { rows } = await this.db.query<KeyRow>(
      'SELECT * FROM idempotency_keys WHERE account_id = $1 AND key = $2',
      [accountId, key],
    );
    return rows[0] ? toEntry(rows[0]) : null;
  }

  async forgetAccount(accountId: string): Promise<void> {
    await this.db.query('DELETE FROM idempotency_keys WHERE account_id = $1', [accountId]);
  }

  async release(accountId: string, key: string, claimId: string): Promise<void> {
    await this.db.query('DELETE FROM idempotency_keys WHERE account_id = $1 AND key = $2 AND claim_id = $3', [
      accountId,
      key,
      claimId,
    ]);
  }

  async takeOver(entry: IdempotencyEntry, staleClaimId: string): Promise<boolean> {
    const result = await this.db.query(
      `UPDATE idempotency_keys SET endpoint = $3, fingerprint = $4, job_id = $5, claim_id = $6, created_at = $7
       WHERE account_id = $1 AND key = $2 AND claim_id = $8`,
      [...values(entry), staleClaimId],
    );
    return (result.rowCount ?? 0) > 0;
  }
}
