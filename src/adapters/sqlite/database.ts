/**
 * Opens the SQLite file shared by `serve`, `worker` and `accounts`: WAL so readers never block the writer,
 * busy_timeout so a CLI command waits for the server's short write transactions instead of failing.
 */
import type BetterSqlite3 from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Database } from './driver.js';
import { MIGRATIONS, type Migration } from './migrations.js';

export type SqliteDatabase = BetterSqlite3.Database;

export const DATABASE_FILE_NAME = 'deckforge.sqlite';

export function databasePath(dataDir: string): string {
  return join(dataDir, DATABASE_FILE_NAME);
}

export interface OpenOptions {
  /** Apply pending migrations (default true). `deckforge migrate` does it explicitly. */
  migrate?: boolean;
  busyTimeoutMs?: number;
}

export function openDatabase(file: string, options: OpenOptions = {}): SqliteDatabase {
  mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  memoiseStatements(db);
  db.pragma(`busy_timeout = ${Math.trunc(options.busyTimeoutMs ?? 10_000)}`);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  if (options.migrate ?? true) migrate(db);
  return db;
}

/**
 * Compiles each SQL text once per connection. The adapters write `db.prepare(sql).run(...)` where they use
 * a statement; compiling it every time was the largest cost of a request's database work (HTTP benchmark
 * profile). Statements here are never iterated or switched to raw/pluck mode, so sharing one is safe.
 */
function memoiseStatements(db: SqliteDatabase): void {
  const compile = db.prepare.bind(db);
  const statements = new Map<string, BetterSqlite3.Statement>();
  db.prepare = ((sql: string) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = compile(sql);
      statements.set(sql, statement);
    }
    return statement;
  }) as SqliteDatabase['prepare'];
}

export interface MigrationReport {
  from: number;
  to: number;
  applied: string[];
}

export function migrate(db: SqliteDatabase, migrations: readonly Migration[] = MIGRATIONS): MigrationReport {
  db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
  );
  const current = schemaVersion(db);
  const applied: string[] = [];
  for (const migration of migrations) {
    if (migration.version <= current) continue;
    // IMMEDIATE: two processes starting together must not both apply the same version.
    db.transaction(() => {
      if (schemaVersion(db) >= migration.version) return;
      db.exec(migration.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
        migration.version,
        migration.name,
        new Date().toISOString(),
      );
      applied.push(`${migration.version} ${migration.name}`);
    }).immediate();
  }
  return { from: current, to: schemaVersion(db), applied };
}

export function schemaVersion(db: SqliteDatabase): number {
  const table = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'")
    .get();
  if (!table) return 0;
  const row = db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number | null };
  return row.v ?? 0;
}

/** Runs `work` in a BEGIN IMMEDIATE transaction: the write lock is taken up front, so read-then-write is atomic. */
export function immediate<T>(db: SqliteDatabase, work: () => T): T {
  return db.transaction(work).immediate();
}
