/**
 * Applies the PostgreSQL migrations (`deckforge migrate`) and checks the schema version (`serve` and `worker`
 * refuse a schema that is behind). Several nodes may migrate at once: the whole run holds a transaction-scoped
 * advisory lock, so one applies the pending versions and the others then find nothing left to do.
 */
import { PG_MIGRATIONS, type PgMigration } from './pg-migrations.js';
import type { PgDatabase, Queryable } from './pg-database.js';

/** pg_advisory_xact_lock key: "deckforge migrate" (any 64-bit constant private to Deckforge). */
const MIGRATION_LOCK = 0x646563_6b6d6967n;

export interface PgMigrationReport {
  from: number;
  to: number;
  applied: string[];
}

export class SchemaBehindError extends Error {
  override readonly name = 'SchemaBehindError';
}

export async function migratePg(
  db: PgDatabase,
  migrations: readonly PgMigration[] = PG_MIGRATIONS,
): Promise<PgMigrationReport> {
  return db.transaction(async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK.toString()]);
    await client.query(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
         version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const from = await versionOf(client);
    const applied: string[] = [];
    for (const migration of migrations) {
      if (migration.version <= from) continue;
      await client.query(migration.sql);
      await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
        migration.version,
        migration.name,
      ]);
      applied.push(`${migration.version} ${migration.name}`);
    }
    return { from, to: await versionOf(client), applied };
  });
}

/** The version of the schema at `db` (0 when nothing was ever applied). */
export async function pgSchemaVersion(db: PgDatabase): Promise<number> {
  return versionOf(db);
}

/** The version this build expects. */
export const PG_SCHEMA_VERSION = Math.max(...PG_MIGRATIONS.map((m) => m.version));

/**
 * Throws SchemaBehindError (saying to run `deckforge migrate`) when the schema is older than this build needs. A
 * newer one is accepted: migrations only add, so nodes of the previous release keep running during an upgrade.
 */
export async function assertPgSchemaCurrent(db: PgDatabase): Promise<void> {
  const version = await pgSchemaVersion(db);
  if (version < PG_SCHEMA_VERSION) {
    throw new SchemaBehindError(
      `the PostgreSQL schema is at version ${version}, this Deckforge needs ${PG_SCHEMA_VERSION}: ` +
        'run `deckforge migrate` (with the same DECKFORGE_DATABASE_URL) first',
    );
  }
}

async function versionOf(q: Queryable): Promise<number> {
  const table = await q.query<{ t: string | null }>("SELECT to_regclass('schema_migrations')::text AS t");
  if (table.rows[0]?.t == null) return 0;
  const row = await q.query<{ v: number | null }>('SELECT MAX(version) AS v FROM schema_migrations');
  return row.rows[0]?.v ?? 0;
}
