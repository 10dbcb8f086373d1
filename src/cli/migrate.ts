/**
 * `deckforge migrate`: creates or upgrades the schema and prints what it did: PostgreSQL's when
 * DECKFORGE_DATABASE_URL is set (safe to run from several nodes at once: one applies, the others find the work
 * done), else the SQLite file of DECKFORGE_DATA_DIR.
 */
import { PgDatabase } from '../adapters/postgres/pg-database.js';
import { migratePg } from '../adapters/postgres/pg-schema.js';
import { databasePath, migrate, openDatabase } from '../adapters/sqlite/database.js';
import { redactedDatabaseUrl, type DatabaseSettings } from '../config/index.js';
import { StoreUnavailableError } from '../service/ports/index.js';
import { loadCommandConfig } from './command-config.js';
import type { CommandIo } from './command-io.js';

const USAGE = `Usage: deckforge migrate

Applies pending schema migrations: to the PostgreSQL database of DECKFORGE_DATABASE_URL when it is set, else to
DECKFORGE_DATA_DIR/deckforge.sqlite. Running it again, or from several machines at once, is safe.
`;

interface Report {
  from: number;
  to: number;
  applied: string[];
}

function describe(where: string, report: Report): string {
  if (report.applied.length === 0) return `${where}: schema is up to date (version ${report.to}).\n`;
  return `${where}: migrated from version ${report.from} to ${report.to}:\n  ${report.applied.join('\n  ')}\n`;
}

async function migratePostgres(settings: DatabaseSettings, io: CommandIo): Promise<number> {
  const where = redactedDatabaseUrl(settings.url);
  // Migrations may run longer than a request's statement: allow them ten minutes.
  const db = new PgDatabase({ url: settings.url, maxConnections: 1, statementTimeoutMs: 600_000 });
  try {
    io.stdout(describe(where, await migratePg(db)));
    return 0;
  } catch (error) {
    if (!(error instanceof StoreUnavailableError)) throw error;
    io.stderr(`deckforge migrate: ${where}: ${error.message}\n`);
    return 1;
  } finally {
    await db.close();
  }
}

export async function runMigrate(args: string[], io: CommandIo): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout(USAGE);
    return 0;
  }
  const config = loadCommandConfig('migrate', io);
  if (!config) return 2;
  if (config.database) return migratePostgres(config.database, io);
  const file = databasePath(config.dataDir);
  const db = openDatabase(file, { migrate: false });
  try {
    io.stdout(describe(file, migrate(db)));
    return 0;
  } finally {
    db.close();
  }
}
