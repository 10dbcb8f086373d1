/**
 * The allowance holds across processes (serve, a second API process, a worker), not only inside one event loop:
 * five processes reserve one slide at a time against one allowance until it refuses them. They start together
 * (a barrier, not a clock time a loaded machine may miss) and record when they ran, so the test can show that
 * they all competed at the same time.
 */
import { execFile } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { databasePath, openDatabase } from '../../../src/adapters/sqlite/database.js';
import { SystemClock } from '../../../src/adapters/clock/system-clock.js';
import { SqliteUsageLedger } from '../../../src/adapters/sqlite/sqlite-usage-ledger.js';
import { tempDir } from '../../support/servers/temp-dir.js';
import { waitFor } from '../../support/servers/wait-for.js';

const run = promisify(execFile);
const PROCESSES = 5;
const ALLOWANCE = 2000;
const PERIOD = '2026-11-21'; // a label of the ledger's rows; no clock reads it

interface Report {
  started: number;
  finished: number;
  granted: number[];
}

describe('slide quota across processes (SQLite)', () => {
  it(`${PROCESSES} processes reserving at once: exactly the allowance is granted, never more`, async () => {
    const dir = tempDir();
    try {
      openDatabase(databasePath(dir.path)).close(); // schema first
      const processes = Array.from({ length: PROCESSES }, (_, i) =>
        run(
          process.execPath,
          [
            '--import',
            'tsx',
            'test/adapters/sqlite/fixtures/reserve-slides-process.ts',
            dir.path,
            dir.path,
            String(i),
            String(ALLOWANCE),
            PERIOD,
          ],
          { cwd: process.cwd() },
        ),
      );
      const ready = () => readdirSync(dir.path).filter((n) => n.startsWith('ready-')).length;
      await waitFor(() => ready() === PROCESSES, 'every process to open the ledger', {
        timeoutMs: 120_000,
        intervalMs: 20,
      });
      writeFileSync(join(dir.path, 'go'), '');
      const reports = (await Promise.all(processes)).map((o) => JSON.parse(o.stdout) as Report);

      const granted = reports.flatMap((r) => r.granted);
      expect(granted).toHaveLength(ALLOWANCE);
      const db = openDatabase(databasePath(dir.path));
      expect(await new SqliteUsageLedger(db, new SystemClock()).periodUsage('acct', PERIOD)).toEqual({
        usedSlides: 0,
        reservedSlides: ALLOWANCE,
      });
      db.close();

      // They all ran at once: one moment lies inside every process's run (each runs until it is refused, so
      // a process that started after another was refused would have had nothing left to compete for). Not all
      // of them need get a slide: SQLite's lock is not fair, a waiting process may lose every time.
      const timeline = reports
        .map((r) => `[${r.started}, ${r.finished}] ${r.granted.length} granted`)
        .join('; ');
      const lastStart = Math.max(...reports.map((r) => r.started));
      const firstEnd = Math.min(...reports.map((r) => r.finished));
      expect(lastStart, timeline).toBeLessThan(firstEnd);
    } finally {
      dir.remove();
    }
  });
});
