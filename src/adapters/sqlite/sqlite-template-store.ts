/** TemplateStore on SQLite: the templates table of migration 8. */
import {
  limitExceeded,
  TemplateLimitError,
  type TemplateHoldings,
  type TemplateLimits,
  type TemplateRecord,
  type TemplateStore,
} from '../../service/ports/index.js';
import type { SqliteDatabase } from './database.js';

interface TemplateRow {
  id: string;
  account_id: string;
  name: string;
  version: number;
  sha256: string;
  bytes: number;
  slides: number;
  created_at: string;
}

function toRecord(row: TemplateRow): TemplateRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    version: row.version,
    sha256: row.sha256,
    bytes: row.bytes,
    slides: row.slides,
    createdAt: row.created_at,
  };
}

export class SqliteTemplateStore implements TemplateStore {
  constructor(private readonly db: SqliteDatabase) {}

  async addVersion(
    record: Omit<TemplateRecord, 'version'>,
    limits?: TemplateLimits,
  ): Promise<TemplateRecord> {
    // One write transaction (IMMEDIATE: the write lock from its first statement) counts what the account holds,
    // refuses past its limits and takes the next number: no other writer, in this process or another on the same
    // file, adds in between.
    const add = this.db.transaction((): TemplateRow => {
      if (limits) {
        const held = this.holdingsNow(record.accountId);
        const refused = limitExceeded(
          held,
          {
            newName: !this.has('name', record.accountId, record.name),
            newContent: !this.has('sha256', record.accountId, record.sha256),
            bytes: record.bytes,
          },
          limits,
        );
        if (refused) throw new TemplateLimitError(refused, held);
      }
      return this.db
        .prepare(
          `INSERT INTO templates (id, account_id, name, version, sha256, bytes, slides, created_at)
           SELECT ?, ?, ?, COALESCE(MAX(version), 0) + 1, ?, ?, ?, ?
           FROM templates WHERE account_id = ? AND name = ?
           RETURNING *`,
        )
        .get(
          record.id,
          record.accountId,
          record.name,
          record.sha256,
          record.bytes,
          record.slides,
          record.createdAt,
          record.accountId,
          record.name,
        ) as TemplateRow;
    });
    return toRecord(add.immediate());
  }

  private has(column: 'name' | 'sha256', accountId: string, value: string): boolean {
    const sql = `SELECT 1 FROM templates WHERE account_id = ? AND ${column} = ? LIMIT 1`;
    return this.db.prepare(sql).get(accountId, value) !== undefined;
  }

  async get(accountId: string, id: string): Promise<TemplateRecord | null> {
    const row = this.db
      .prepare('SELECT * FROM templates WHERE id = ? AND account_id = ?')
      .get(id, accountId) as TemplateRow | undefined;
    return row ? toRecord(row) : null;
  }

  async latest(accountId: string, name: string): Promise<TemplateRecord | null> {
    const row = this.db
      .prepare('SELECT * FROM templates WHERE account_id = ? AND name = ? ORDER BY version DESC LIMIT 1')
      .get(accountId, name) as TemplateRow | undefined;
    return row ? toRecord(row) : null;
  }

  async versions(accountId: string, name: string): Promise<TemplateRecord[]> {
    const rows = this.db
      .prepare('SELECT * FROM templates WHERE account_id = ? AND name = ? ORDER BY version DESC')
      .all(accountId, name) as TemplateRow[];
    return rows.map(toRecord);
  }

  async listLatest(accountId: string): Promise<TemplateRecord[]> {
    const rows = this.db
      .prepare(
        `SELECT t.* FROM templates t
         JOIN (SELECT name, MAX(version) AS version FROM templates WHERE account_id = ? GROUP BY name) l
           ON t.name = l.name AND t.version = l.version
         WHERE t.account_id = ? ORDER BY t.name`,
      )
      .all(accountId, accountId) as TemplateRow[];
    return rows.map(toRecord);
  }

  async holdings(accountId: string): Promise<TemplateHoldings> {
    return this.holdingsNow(accountId);
  }

  private holdingsNow(accountId: string): TemplateHoldings {
    const row = this.db
      .prepare(
        `SELECT (SELECT COUNT(DISTINCT name) FROM templates WHERE account_id = ?) AS templates,
                (SELECT COALESCE(SUM(bytes), 0) FROM
                   (SELECT MAX(bytes) AS bytes FROM templates WHERE account_id = ? GROUP BY sha256)) AS bytes`,
      )
      .get(accountId, accountId) as TemplateHoldings;
    return { templates: row.templates, bytes: row.bytes };
  }

  async findContent(accountId: string, sha256: string): Promise<TemplateRecord | null> {
    const row = this.db
      .prepare('SELECT * FROM templates WHERE account_id = ? AND sha256 = ? LIMIT 1')
      .get(accountId, sha256) as TemplateRow | undefined;
    return row ? toRecord(row) : null;
  }

  async deleteName(accountId: string, name: string): Promise<TemplateRecord[]> {
    const rows = this.db
      .prepare('DELETE FROM templates WHERE account_id = ? AND name = ? RETURNING *')
      .all(accountId, name) as TemplateRow[];
    return rows.map(toRecord);
  }

  async forgetAccount(accountId: string): Promise<TemplateRecord[]> {
    const rows = this.db
      .prepare('DELETE FROM templates WHERE account_id = ? RETURNING *')
      .all(accountId) as TemplateRow[];
    return rows.map(toRecord);
  }
}
