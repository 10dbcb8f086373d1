/**
 * The UsageLedger contract: every adapter (SQLite now, PostgreSQL later) runs this suite unchanged.
 * `make` returns a fresh, empty ledger; `openSecond` (optional) a second handle on the same storage, the way a
 * second process would see it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiCallIncrement, UsageLedger } from '../../../src/service/ports/index.js';

export interface LedgerHarness {
  ledger: UsageLedger;
  openSecond?: () => UsageLedger;
  close(): Promise<void>;
}

export function describeUsageLedgerContract(name: string, make: () => Promise<LedgerHarness>): void {
  describe(`UsageLedger contract: ${name}`, () => {
    let harness: LedgerHarness | null = null;
    const open = async (): Promise<LedgerHarness> => (harness = await make());
    afterEach(async () => {
      await harness?.close();
      harness = null;
    });

    const base = { accountId: 'acct-1', periodStart: '2026-11-21', allowance: 100, jobId: null };

    it('grants a reservation that fits and refuses one that does not, reporting what is used', async () => {
      const { ledger } = await open();
      const first = await ledger.reserve({ ...base, slides: 95 });
      expect(first.granted).toBe(true);
      const second = await ledger.reserve({ ...base, slides: 10 });
      expect(second).toEqual({ granted: false, used: 95 });
      expect(await ledger.periodUsage('acct-1', '2026-11-21')).toEqual({ usedSlides: 0, reservedSlides: 95 });
    });

    it('50 concurrent reservations of 10 slides against an allowance of 100: exactly 10 are granted', async () => {
      const { ledger } = await open();
      const outcomes = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          ledger.reserve({ ...base, slides: 10, jobId: i % 2 ? `job-${i}` : null }),
        ),
      );
      expect(outcomes.filter((o) => o.granted)).toHaveLength(10);
      expect(outcomes.filter((o) => !o.granted)).toHaveLength(40);
      expect(await ledger.periodUsage('acct-1', '2026-11-21')).toEqual({
        usedSlides: 0,
        reservedSlides: 100,
      });
    });

    it('concurrent reservations through two handles on the same storage never overshoot', async () => {
      const h = await open();
      if (!h.openSecond) return expect(h.openSecond).toBeUndefined(); // adapter without shared storage
      const other = h.openSecond();
      const outcomes = await Promise.all(
        Array.from({ length: 40 }, (_, i) => (i % 2 ? h.ledger : other).reserve({ ...base, slides: 7 })),
      );
      expect(outcomes.filter((o) => o.granted)).toHaveLength(14); // 14 × 7 = 98 ≤ 100 < 105
    });

    const settle = (reservationId: string, slides: number) => ({
      settlements: [{ reservationId, slides }],
      apiCalls: [],
    });

    it('a settlement turns the reservation into used slides, with the actual count', async () => {
      const { ledger } = await open();
      const r = await ledger.reserve({ ...base, slides: 10 });
      if (!r.granted) throw new Error('not granted');
      await ledger.write(settle(r.reservationId, 9));
      expect(await ledger.periodUsage('acct-1', '2026-11-21')).toEqual({ usedSlides: 9, reservedSlides: 0 });
      await ledger.write(settle(r.reservationId, 9)); // twice is a no-op
      await ledger.write(settle('never-reserved', 5));
      expect(await ledger.periodUsage('acct-1', '2026-11-21')).toEqual({ usedSlides: 9, reservedSlides: 0 });
    });

    it('writes settlements of several accounts and API calls in one batch', async () => {
      const { ledger } = await open();
      const a = await ledger.reserve({ ...base, slides: 10 });
      const b = await ledger.reserve({ ...base, accountId: 'acct-2', slides: 20 });
      if (!a.granted || !b.granted) throw new Error('not granted');
      await ledger.write({
        settlements: [
          { reservationId: a.reservationId, slides: 10 },
          { reservationId: b.reservationId, slides: 20 },
        ],
        apiCalls: [{ accountId: 'acct-1', periodStart: '2026-11-21', successful: 2, failed: 1 }],
      });
      expect(await ledger.periodUsage('acct-1', '2026-11-21')).toEqual({ usedSlides: 10, reservedSlides: 0 });
      expect(await ledger.periodUsage('acct-2', '2026-11-21')).toEqual({ usedSlides: 20, reservedSlides: 0 });
      expect(await ledger.apiCalls('acct-1')).toEqual({ total: 3, successful: 2, failed: 1 });
    });

    it('release gives the slides back, so a later request fits again', async () => {
      const { ledger } = await open();
      const r = await ledger.reserve({ ...base, slides: 100 });
      if (!r.granted) throw new Error('not granted');
      expect((await ledger.reserve({ ...base, slides: 1 })).granted).toBe(false);
      expect(await ledger.release(r.reservationId)).toBe(true);
      expect(await ledger.release(r.reservationId)).toBe(false);
      expect((await ledger.reserve({ ...base, slides: 100 })).granted).toBe(true);
    });

    it('keeps periods and accounts apart', async () => {
      const { ledger } = await open();
      const a = await ledger.reserve({ ...base, slides: 100 });
      if (!a.granted) throw new Error('not granted');
      await ledger.write(settle(a.reservationId, 100));
      expect((await ledger.reserve({ ...base, periodStart: '2026-12-21', slides: 100 })).granted).toBe(true);
      expect((await ledger.reserve({ ...base, accountId: 'acct-2', slides: 100 })).granted).toBe(true);
      expect(await ledger.periodUsage('acct-1', '2026-10-21')).toEqual({ usedSlides: 0, reservedSlides: 0 });
    });

    it("a reservation still open from last period, or another account's, takes nothing of this period's allowance", async () => {
      const { ledger } = await open();
      expect(
        (await ledger.reserve({ ...base, periodStart: '2026-10-21', slides: 90, jobId: 'late-job' })).granted,
      ).toBe(true);
      expect((await ledger.reserve({ ...base, accountId: 'acct-2', slides: 90 })).granted).toBe(true);
      expect((await ledger.reserve({ ...base, slides: 100 })).granted).toBe(true);
      expect(await ledger.periodUsage('acct-1', '2026-11-21')).toEqual({
        usedSlides: 0,
        reservedSlides: 100,
      });
    });

    it('releaseStale frees only old reservations that belong to no job', async () => {
      const { ledger } = await open();
      await ledger.reserve({ ...base, slides: 10 });
      await ledger.reserve({ ...base, slides: 20, jobId: 'job-1' });
      expect(await ledger.releaseStale(new Date(Date.now() - 60_000))).toBe(0); // not old yet
      expect(await ledger.releaseStale(new Date(Date.now() + 60_000))).toBe(1);
      expect(await ledger.periodUsage('acct-1', '2026-11-21')).toEqual({ usedSlides: 0, reservedSlides: 20 });
    });

    it('counts API calls per outcome, summed over periods', async () => {
      const { ledger } = await open();
      const calls = (...apiCalls: ApiCallIncrement[]) => ledger.write({ settlements: [], apiCalls });
      await calls(
        { accountId: 'acct-1', periodStart: '2026-10-21', successful: 1, failed: 0 },
        { accountId: 'acct-1', periodStart: '2026-11-21', successful: 4, failed: 2 },
        { accountId: 'acct-2', periodStart: '2026-11-21', successful: 0, failed: 1 },
      );
      await calls({ accountId: 'acct-1', periodStart: '2026-11-21', successful: 1, failed: 0 });
      await calls();
      expect(await ledger.apiCalls('acct-1')).toEqual({ total: 8, successful: 6, failed: 2 });
      expect(await ledger.apiCalls('nobody')).toEqual({ total: 0, successful: 0, failed: 0 });
    });

    it('keeps settled slides per UTC day within the period, and API calls per period', async () => {
      const { ledger } = await open();
      const settleOn = async (slides: number, day: string | undefined, periodStart = '2026-11-21') => {
        const r = await ledger.reserve({ ...base, periodStart, slides });
        if (!r.granted) throw new Error('not granted');
        await ledger.write({ settlements: [{ reservationId: r.reservationId, slides, day }], apiCalls: [] });
      };
      await settleOn(3, '2026-11-21');
      await settleOn(4, '2026-11-23');
      await settleOn(5, '2026-11-21');
      await settleOn(7, '2026-11-20', '2026-10-21'); // the previous period
      expect(await ledger.dailySlides('acct-1', '2026-11-21')).toEqual([
        { day: '2026-11-21', slides: 8 },
        { day: '2026-11-23', slides: 4 },
      ]);
      expect(await ledger.dailySlides('acct-1', '2026-10-21')).toEqual([{ day: '2026-11-20', slides: 7 }]);
      expect(await ledger.dailySlides('acct-2', '2026-11-21')).toEqual([]);
      // Without a day, the ledger's own clock names it.
      await settleOn(2, undefined);
      const days = await ledger.dailySlides('acct-1', '2026-11-21');
      expect(days.reduce((sum, d) => sum + d.slides, 0)).toBe(14);
      expect((await ledger.periodUsage('acct-1', '2026-11-21')).usedSlides).toBe(14);

      await ledger.write({
        settlements: [],
        apiCalls: [
          { accountId: 'acct-1', periodStart: '2026-10-21', successful: 1, failed: 2 },
          { accountId: 'acct-1', periodStart: '2026-11-21', successful: 5, failed: 0 },
        ],
      });
      expect(await ledger.periodApiCalls('acct-1', '2026-10-21')).toEqual({
        total: 3,
        successful: 1,
        failed: 2,
      });
      expect(await ledger.periodApiCalls('acct-1', '2026-11-21')).toEqual({
        total: 5,
        successful: 5,
        failed: 0,
      });
      expect(await ledger.periodApiCalls('acct-1', '2026-09-21')).toEqual({
        total: 0,
        successful: 0,
        failed: 0,
      });
    });

    it("forgetting an account removes its periods, days and reservations, and no other account's", async () => {
      const { ledger } = await open();
      for (const accountId of ['acct-1', 'acct-2']) {
        const r = await ledger.reserve({ ...base, accountId, slides: 4 });
        if (!r.granted) throw new Error('not granted');
        await ledger.write({
          settlements: [{ reservationId: r.reservationId, slides: 4, day: '2026-11-22' }],
          apiCalls: [{ accountId, periodStart: '2026-11-21', successful: 1, failed: 0 }],
        });
        await ledger.reserve({ ...base, accountId, slides: 2 });
      }
      await ledger.forgetAccount('acct-1');
      expect(await ledger.periodUsage('acct-1', '2026-11-21')).toEqual({ usedSlides: 0, reservedSlides: 0 });
      expect(await ledger.dailySlides('acct-1', '2026-11-21')).toEqual([]);
      expect(await ledger.apiCalls('acct-1')).toEqual({ total: 0, successful: 0, failed: 0 });
      expect(await ledger.periodUsage('acct-2', '2026-11-21')).toEqual({ usedSlides: 4, reservedSlides: 2 });
      expect(await ledger.dailySlides('acct-2', '2026-11-21')).toEqual([{ day: '2026-11-22', slides: 4 }]);
    });

    it('forgets everything of one account, and only of that one', async () => {
      const { ledger } = await open();
      const held = await ledger.reserve({ ...base, slides: 30 });
      await ledger.reserve({ ...base, accountId: 'acct-2', slides: 20 });
      if (!held.granted) throw new Error('the reservation should fit');
      await ledger.write({
        settlements: [{ reservationId: held.reservationId, slides: 30 }],
        apiCalls: [
          { accountId: 'acct-1', periodStart: base.periodStart, successful: 3, failed: 1 },
          { accountId: 'acct-2', periodStart: base.periodStart, successful: 2, failed: 0 },
        ],
      });
      await ledger.reserve({ ...base, slides: 5 });
      await ledger.forgetAccount('acct-1');
      expect(await ledger.periodUsage('acct-1', base.periodStart)).toEqual({
        usedSlides: 0,
        reservedSlides: 0,
      });
      expect(await ledger.apiCalls('acct-1')).toEqual({ total: 0, successful: 0, failed: 0 });
      expect(await ledger.periodUsage('acct-2', base.periodStart)).toEqual({
        usedSlides: 0,
        reservedSlides: 20,
      });
      expect(await ledger.apiCalls('acct-2')).toEqual({ total: 2, successful: 2, failed: 0 });
    });
  });
}
