/**
 * API-call counts are batched in memory and written in one ledger transaction per flush (api-call-tally.ts),
 * against the real SQLite ledger: nothing counted is lost, not even when a write fails.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { databasePath, openDatabase } from '../../src/adapters/sqlite/database.js';
import { SqliteUsageLedger } from '../../src/adapters/sqlite/sqlite-usage-ledger.js';
import { ApiCallTally } from '../../src/service/api-call-tally.js';
import {
  SILENT_LOGGER as quiet,
  type ApiCallIncrement,
  type UsageLedger,
} from '../../src/service/ports/index.js';
import { tempDir } from '../adapters/temp-dir.js';

describe('ApiCallTally', () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup();
  });

  /** The real ledger, with a switch that makes its next writes fail and a record of the batches it got. */
  function ledgerOnDisk() {
    const dir = tempDir();
    const db = openDatabase(databasePath(dir.path));
    cleanups.push(() => {
      db.close();
      dir.remove();
    });
    const real = new SqliteUsageLedger(db);
    const batches: ApiCallIncrement[][] = [];
    let failWrites = false;
    const ledger: UsageLedger = Object.assign(Object.create(real) as UsageLedger, {
      addApiCalls: async (increments: readonly ApiCallIncrement[]) => {
        if (failWrites) throw new Error('disk full');
        batches.push(increments.map((i) => ({ ...i })));
        return real.addApiCalls(increments);
      },
    });
    return { ledger, batches, failNextWrites: (fail: boolean) => (failWrites = fail) };
  }

  it('counts in memory and writes everything pending in one batch per account and period', async () => {
    const { ledger, batches } = ledgerOnDisk();
    const tally = new ApiCallTally(ledger, quiet, 60_000);
    for (let i = 0; i < 40; i++) tally.count('acct-1', '2026-11-21', i % 4 !== 0);
    tally.count('acct-1', '2026-10-21', true);
    tally.count('acct-2', '2026-11-21', false);
    expect(await ledger.apiCalls('acct-1')).toEqual({ total: 0, successful: 0, failed: 0 });

    await tally.flush();
    expect(batches).toHaveLength(1);
    expect(batches[0]).toHaveLength(3);
    expect(await ledger.apiCalls('acct-1')).toEqual({ total: 41, successful: 31, failed: 10 });
    expect(await ledger.apiCalls('acct-2')).toEqual({ total: 1, successful: 0, failed: 1 });

    await tally.flush(); // nothing pending: no empty transaction
    expect(batches).toHaveLength(1);
    await tally.close();
  });

  it('keeps the counts of a failed write and writes them with the next flush', async () => {
    const { ledger, failNextWrites } = ledgerOnDisk();
    const tally = new ApiCallTally(ledger, quiet, 60_000);
    tally.count('acct-1', '2026-11-21', true);
    failNextWrites(true);
    await expect(tally.flush()).rejects.toThrow('disk full');
    tally.count('acct-1', '2026-11-21', false);
    failNextWrites(false);
    await tally.flush();
    expect(await ledger.apiCalls('acct-1')).toEqual({ total: 2, successful: 1, failed: 1 });
    await tally.close();
  });

  it('flushes on its own every interval, and at close', async () => {
    const { ledger } = ledgerOnDisk();
    const tally = new ApiCallTally(ledger, quiet, 20);
    tally.count('acct-1', '2026-11-21', true);
    await expect.poll(() => ledger.apiCalls('acct-1'), { timeout: 2000 }).toMatchObject({ total: 1 });
    tally.count('acct-1', '2026-11-21', true);
    await tally.close();
    expect(await ledger.apiCalls('acct-1')).toEqual({ total: 2, successful: 2, failed: 0 });
  });
});
