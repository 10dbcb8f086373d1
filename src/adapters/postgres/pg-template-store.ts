/**
 * TemplateStore on PostgreSQL. Adding a version holds a transaction-scoped advisory lock on the account, so two
 * nodes storing templates for one account at once count its holdings, check its limits and number their versions
 * one after the other.
 */
import {
  limitExceeded,
  TemplateLimitError,
  type TemplateHoldings,
  type TemplateLimits,
  type TemplateRecord,
  type TemplateStore,
} from '../../service/ports/index.js';
import { isoOf, type PgDatabase, type Queryable } from './pg-database.js';

interface TemplateRow {
  id: string;
  account_id: string;
  name: string;
  version: number;
  sha256: string;
  bytes: string;
  slides: number;
  created_at: Date;
}

function toRecord(row: TemplateRow): TemplateRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    version: row.version,
    sha256: row.sha256,
    bytes: Number(row.bytes),
    slides: row.slides,
    createdAt: isoOf(row.created_at),
  };
}

export class PgTemplateStore implements TemplateStore {
  constructor(private readonly db: PgDatabase) {}

  async addVersion(
    record: Omit<TemplateRecord, 'version'>,
    limits?: TemplateLimits,
  ): Promise<TemplateRecord> {
    return this.db.transaction(async (client) => {
      await client.query("SELECT pg_advisory_xact_lock(hashtextextended('templates/' || $1, 0))", [
        record.accountId,
      ]);
      if (limits) {
        // Read committed: each statement below sees what the lock's previous holders committed.
        const held = await holdingsOn(client, record.accountId);
        const { rows } = await client.query<{ has_name: boolean; has_content: boolean }>(
          `SELECT EXISTS (SELECT 1 FROM templates WHERE account_id = $1 AND name = $2) AS has_name,
                  EXISTS (SELECT 1 FROM templates WHERE account_id = $1 AND sha256 = $3) AS has_content`,
          [record.accountId, record.name, record.sha256],
        );
        const refused = limitExceeded(
          held,
          { newName: !rows[0]!.has_name, newContent: !rows[0]!.has_content, bytes: record.bytes },
          limits,
        );
        if (refused) throw new TemplateLimitError(refused, held);
      }
      const { rows } = await client.query<TemplateRow>(
        `INSERT INTO templates (id, account_id, name, version, sha256, bytes, slides, created_at)
         SELECT $1, $2, $3, COALESCE(MAX(version), 0) + 1, $4, $5, $6, $7
         FROM templates WHERE account_id = $2 AND name = $3
         RETURNING *`,
        [
          record.id,
          record.accountId,
          record.name,
          record.sha256,
          record.bytes,
          record.slides,
          record.createdAt,
        ],
      );
      return toRecord(rows[0]!);
    });
  }

  async get(accountId: string, id: string): Promise<TemplateRecord | null> {
    const { rows } = await this.db.query<TemplateRow>(
      'SELECT * FROM templates WHERE id = $1 AND account_id = $2',
      [id, accountId],
    );
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async latest(accountId: string, name: string): Promise<TemplateRecord | null> {
    const { rows } = await this.db.query<TemplateRow>(
      'SELECT * FROM templates WHERE account_id = $1 AND name = $2 ORDER BY version DESC LIMIT 1',
      [accountId, name],
    );
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async versions(accountId: string, name: string): Promise<TemplateRecord[]> {
    const { rows } = await this.db.query<TemplateRow>(
      'SELECT * FROM templates WHERE account_id = $1 AND name = $2 ORDER BY version DESC',
      [accountId, name],
    );
    return rows.map(toRecord);
  }

  async listLatest(accountId: string): Promise<TemplateRecord[]> {
    const { rows } = await this.db.query<TemplateRow>(
      // By name in byte order (COLLATE "C"), as SQLite sorts: the same list whichever database is behind.
      `SELECT * FROM (SELECT DISTINCT ON (name) * FROM templates WHERE account_id = $1
         ORDER BY name, version DESC) latest
       ORDER BY name COLLATE "C"`,
      [accountId],
    );
    return rows.map(toRecord);
  }

  async holdings(accountId: string): Promise<TemplateHoldings> {
    return holdingsOn(this.db, accountId);
  }

  async findContent(accountId: string, sha256: string): Promise<TemplateRecord | null> {
    const { rows } = await this.db.query<TemplateRow>(
      'SELECT * FROM templates WHERE account_id = $1 AND sha256 = $2 LIMIT 1',
      [accountId, sha256],
    );
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async deleteName(accountId: string, name: string): Promise<TemplateRecord[]> {
    const { rows } = await this.db.query<TemplateRow>(
      'DELETE FROM templates WHERE account_id = $1 AND name = $2 RETURNING *',
      [accountId, name],
    );
    return rows.map(toRecord);
  }

  async forgetAccount(accountId: string): Promise<TemplateRecord[]> {
    const { rows } = await this.db.query<TemplateRow>(
      'DELETE FROM templates WHERE account_id = $1 RETURNING *',
      [accountId],
    );
    return rows.map(toRecord);
  }
}

async function holdingsOn(db: Queryable, accountId: string): Promise<TemplateHoldings> {
  const { rows } = await db.query<{ templates: string; bytes: string }>(
    `SELECT (SELECT COUNT(DISTINCT name) FROM templates WHERE account_id = $1) AS templates,
            (SELECT COALESCE(SUM(bytes), 0) FROM
               (SELECT MAX(bytes) AS bytes FROM templates WHERE account_id = $1 GROUP BY sha256) c) AS bytes`,
    [accountId],
  );
  return { templates: Number(rows[0]?.templates ?? 0), bytes: Number(rows[0]?.bytes ?? 0) };
}
