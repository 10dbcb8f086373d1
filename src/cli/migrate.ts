/** `deckforge migrate`: creates or upgrades the SQLite schema of DECKFORGE_DATA_DIR and prints what it did. */
import { databasePath, migrate, openDatabase } from '../adapters/sqlite/database.js';
import { loadCommandConfig } from './command-config.js';
import type { CommandIo } from './command-io.js';

export async function runMigrate(args: string[], io: CommandIo): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    io.stdout(
      'Usage: deckforge migrate\n\nApplies pending schema migrations to DECKFORGE_DATA_DIR/deckforge.sqlite.\n',
    );
    return 0;
  }
  const config = loadCommandConfig('migrate', io);
  if (!config) return 2;
  const file = databasePath(config.dataDir);
  const db = openDatabase(file, { migrate: false });
  try {
    const report = migrate(db);
    if (report.applied.length === 0) io.stdout(`${file}: schema is up to date (version ${report.to}).\n`);
    else
      io.stdout(
        `${file}: migrated from version ${report.from} to ${report.to}:\n  ${report.applied.join('\n  ')}\n`,
      );
    return 0;
  } finally {
    db.close();
  }
}
