/**
 * The allowance holds across processes (serve, a second API process, a worker), not only inside one event loop:
 * five processes fire 10 reservations each at the same moment against an allowance that fits 10.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { databasePath, openDatabase } from '../../src/adapters/sqlite/database.js';
import { SqliteUsageLedger } from '../../src/adapters/sqlite/sqlite-usage-ledger.js';
import { tempDir } from './temp-dir.js';

const run = promisify(execFile);

describe('slide quota across processes (SQLite)', () => {
  it('50 reservations from 5 processes at once: exactly 10 granted', async () => {
    const dir = tempDir();
    try {
      openDatabase(databasePath(dir.path)).close(); // schema first
      const startAt = Date.now() + 3000;
      const outputs = await Promise.all(
        Array.from({ length: 5 }, () =>
          run(
            process.execPath,
            [
              '--import',
              'tsx',
              'test/adapters/fixtures/reserve-slides-process.ts',
              dir.path,
              String(startAt),
              '10',
            ],
            {
              cwd: process.cwd(),
            },
          ),
        ),
      );
      const granted = outputs.map((o) => Number(o.stdout));
      expect(granted.reduce((a, b) => a + b, 0)).toBe(10);
      const db = openDatabase(databasePath(dir.path));
      expect(await new SqliteUsageLedger(db).periodUsage('acct', '2026-11-21')).toEqual({
        usedSlides: 0,
        reservedSlides: 100,
      });
      db.close();
    } finally {
      dir.remove();
    }
  });
});
