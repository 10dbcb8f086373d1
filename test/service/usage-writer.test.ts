/**
 * Usage writes are batched in memory and written in one ledger transaction per flush (usage-writer.ts),
 * against the real SQLite ledger: nothing settled or counted is lost, not even when a write fails, and the
 * allowance stays exact while settlements wait.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { databasePath, openDatabase } from '../../src/adapters/sqlite/database.js';
import { SystemClock } from '../../src/adapters/clock/system-clock.js';
import { SqliteUsageLedger } from '../../src/adapters/sqlite/sqlite-usage-ledger.js';
import { SILENT_LOGGER as quiet, type UsageLedger, type UsageWrites } from '../../src/service/ports/index.js';
import { UsageWriter } from '../../src/service/usage-writer.js';
import { tempDir } from '../support/servers/temp-dir.js';

const period = '2026-11-21';

describe('UsageWriter', () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup();
  });

  /** The real ledger, with a switch that makes its writes fail and a record of the batches it got. */
  function ledgerOnDisk() {
    const dir = tempDir();
    const db = openDatabase(databasePath(dir.path));
    cleanups.push(() => {
      db.close();
      dir.remove();
    });
    const real = new SqliteUsageLedger(db, new SystemClock());
    const batches: UsageWrites[] = [];
    let failWrites = false;
    const ledger: UsageLedger = Object.assign(Object.create(real) as UsageLedger, {
      write: async (batch: UsageWrites) => {
        if (failWrites) throw new Error('disk full');
        batches.push(structuredClone(batch));
        return real.write(batch);
      },
    });
    return { ledger, batches, failWrites: (fail: boolean) => (failWrites = fail) };
  }

  async function reserve(ledger: UsageLedger, slides: number, allowance = 100): Promise<string> {
    const outcome = await ledger.reserve({
      accountId: 'acct-1',
      periodStart: period,
      slides,
      allowance,
      jobId: null,
    });
    if (!outcome.granted) throw new Error('not granted');
    return outcome.reservationId;
  }

  it('writes everything pending in one batch: settlements, and API calls summed per account and period', async () => {
    const { ledger, batches } = ledgerOnDisk();
    const writer = new UsageWriter(ledger, quiet, 60_000);
    const first = await reserve(ledger, 10);
    const second = await reserve(ledger, 5);
    writer.settle(first, 10, new Date());
    writer.settle(second, 4, new Date());
    for (let i = 0; i < 40; i++) writer.countApiCall('acct-1', period, i % 4 !== 0);
    writer.countApiCall('acct-1', '2026-10-21', true);
    writer.countApiCall('acct-2', period, false);
    // Nothing written yet, and the unsettled reservations still hold their slides.
    expect(await ledger.periodUsage('acct-1', period)).toEqual({ usedSlides: 0, reservedSlides: 15 });
    expect(await ledger.apiCalls('acct-1')).toEqual({ total: 0, successful: 0, failed: 0 });

    await writer.flush();
    expect(batches).toHaveLength(1);
    expect(batches[0]?.settlements).toHaveLength(2);
    expect(batches[0]?.apiCalls).toHaveLength(3);
    expect(await ledger.periodUsage('acct-1', period)).toEqual({ usedSlides: 14, reservedSlides: 0 });
    expect(await ledger.apiCalls('acct-1')).toEqual({ total: 41, successful: 31, failed: 10 });
    expect(await ledger.apiCalls('acct-2')).toEqual({ total: 1, successful: 0, failed: 1 });

    await writer.flush(); // nothing pending: no empty transaction
    expect(batches).toHaveLength(1);
    await writer.close();
  });

  it('the allowance stays exact while a settlement waits to be written', async () => {
    const { ledger } = ledgerOnDisk();
    const writer = new UsageWriter(ledger, quiet, 60_000);
    writer.settle(await reserve(ledger, 60), 60, new Date());
    const refused = await ledger.reserve({
      accountId: 'acct-1',
      periodStart: period,
      slides: 41,
      allowance: 100,
      jobId: null,
    });
    expect(refused).toEqual({ granted: false, used: 60 });
    await writer.close();
  });

  it('keeps what a failed write held and writes it with the next flush', async () => {
    const { ledger, failWrites } = ledgerOnDisk();
    const writer = new UsageWriter(ledger, quiet, 60_000);
    writer.settle(await reserve(ledger, 3), 3, new Date());
    writer.countApiCall('acct-1', period, true);
    failWrites(true);
    await expect(writer.flush()).rejects.toThrow('disk full');
    writer.countApiCall('acct-1', period, false);
    failWrites(false);
    await writer.flush();
    expect(await ledger.apiCalls('acct-1')).toEqual({ total: 2, successful: 1, failed: 1 });
    expect(await ledger.periodUsage('acct-1', period)).toEqual({ usedSlides: 3, reservedSlides: 0 });
    await writer.close();
  });

  it('flushes on its own every interval, and at close', async () => {
    const { ledger } = ledgerOnDisk();
    const writer = new UsageWriter(ledger, quiet, 20);
    writer.countApiCall('acct-1', period, true);
    await expect.poll(() => ledger.apiCalls('acct-1'), { timeout: 2000 }).toMatchObject({ total: 1 });
    writer.settle(await reserve(ledger, 7), 7, new Date());
    writer.countApiCall('acct-1', period, true);
    await writer.close();
    expect(await ledger.apiCalls('acct-1')).toEqual({ total: 2, successful: 2, failed: 0 });
    expect(await ledger.periodUsage('acct-1', period)).toEqual({ usedSlides: 7, reservedSlides: 0 });
  });
});
