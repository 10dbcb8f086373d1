/**
 * The WebhookStore contract: secrets, the WAITING → DELIVERING → DELIVERED/GAVE_UP walk, and `claimDue` handing a
 * due delivery to one caller only, also when two handles on the same storage (two processes) claim at once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { WebhookDeliveryRecord, WebhookStore } from '../../../src/service/ports/index.js';

export interface WebhookHarness {
  webhooks: WebhookStore;
  openSecond?: () => WebhookStore;
  close(): Promise<void>;
}

const delivery = (jobId: string, overrides: Partial<WebhookDeliveryRecord> = {}): WebhookDeliveryRecord => ({
  jobId,
  accountId: 'acct-1',
  url: 'https://hooks.example.test/deckforge',
  linkBase: 'https://deckforge.example.test',
  state: 'WAITING',
  attempts: 0,
  lastStatus: null,
  lastError: null,
  endedAt: null,
  nextAttemptAt: null,
  ...overrides,
});

const T0 = new Date('2026-11-21T10:00:00.000Z');
const later = (ms: number) => new Date(T0.getTime() + ms);

export function describeWebhookStoreContract(name: string, make: () => Promise<WebhookHarness>): void {
  describe(`WebhookStore contract: ${name}`, () => {
    let harness: WebhookHarness | null = null;
    const open = async (): Promise<WebhookHarness> => (harness = await make());
    afterEach(async () => {
      await harness?.close();
      harness = null;
    });

    it('keeps one secret per account, replaced when set again', async () => {
      const { webhooks } = await open();
      expect(await webhooks.getSecret('acct-1')).toBeNull();
      await webhooks.setSecret('acct-1', 'whsec_one', T0);
      await webhooks.setSecret('acct-2', 'whsec_two', T0);
      await webhooks.setSecret('acct-1', 'whsec_three', later(1000));
      expect([await webhooks.getSecret('acct-1'), await webhooks.getSecret('acct-2')]).toEqual([
        'whsec_three',
        'whsec_two',
      ]);
    });

    it('forgets the signing secret of a deleted account and no other', async () => {
      const { webhooks } = await open();
      await webhooks.setSecret('a1', 'secret-a', T0);
      await webhooks.setSecret('b1', 'secret-b', T0);
      await webhooks.forgetAccount('a1');
      expect(await webhooks.getSecret('a1')).toBeNull();
      expect(await webhooks.getSecret('b1')).toBe('secret-b');
    });

    it('a delivery waits for its job, is due when the job ends, and records each attempt', async () => {
      const { webhooks } = await open();
      await webhooks.createDelivery(delivery('j1'));
      await webhooks.createDelivery(delivery('j2'));
      expect((await webhooks.listWaiting(10)).map((d) => d.jobId).sort()).toEqual(['j1', 'j2']);
      expect(await webhooks.claimDue(later(60_000), later(90_000), 10)).toEqual([]); // nothing ended yet
      expect(await webhooks.markEnded('j1', later(1000))).toBe(true);
      expect(await webhooks.markEnded('j1', later(2000))).toBe(false);
      expect((await webhooks.listWaiting(10)).map((d) => d.jobId)).toEqual(['j2']);
      expect(await webhooks.claimDue(later(500), later(30_000), 10)).toEqual([]); // not due before it ended
      const claimed = await webhooks.claimDue(later(1000), later(31_000), 10);
      expect(claimed).toEqual([
        delivery('j1', {
          state: 'DELIVERING',
          endedAt: later(1000).toISOString(),
          nextAttemptAt: later(1000).toISOString(),
        }),
      ]);
      // Held: not handed out again before holdUntil.
      expect(await webhooks.claimDue(later(30_000), later(60_000), 10)).toEqual([]);
      await webhooks.recordAttempt('j1', {
        state: 'DELIVERING',
        lastStatus: 503,
        lastError: null,
        nextAttemptAt: later(3000).toISOString(),
      });
      expect(await webhooks.getDelivery('j1')).toMatchObject({
        state: 'DELIVERING',
        attempts: 1,
        lastStatus: 503,
        nextAttemptAt: later(3000).toISOString(),
      });
      await webhooks.recordAttempt('j1', {
        state: 'DELIVERED',
        lastStatus: 204,
        lastError: null,
        nextAttemptAt: null,
      });
      expect(await webhooks.getDelivery('j1')).toMatchObject({
        state: 'DELIVERED',
        attempts: 2,
        lastStatus: 204,
      });
      expect(await webhooks.claimDue(later(3_600_000), later(3_700_000), 10)).toEqual([]);
      await webhooks.deleteDelivery('j1');
      expect(await webhooks.getDelivery('j1')).toBeNull();
    });

    it('hands out due deliveries oldest first, at most the limit', async () => {
      const { webhooks } = await open();
      for (const [jobId, endedMs] of [
        ['a', 3000],
        ['b', 1000],
        ['c', 2000],
      ] as const) {
        await webhooks.createDelivery(delivery(jobId));
        await webhooks.markEnded(jobId, later(endedMs));
      }
      expect((await webhooks.claimDue(later(5000), later(60_000), 2)).map((d) => d.jobId)).toEqual([
        'b',
        'c',
      ]);
      expect((await webhooks.claimDue(later(5000), later(60_000), 2)).map((d) => d.jobId)).toEqual(['a']);
    });

    it('leaves out the deliveries of the accounts it is told to skip', async () => {
      const { webhooks } = await open();
      for (const [jobId, accountId] of [
        ['busy-1', 'acct-busy'],
        ['busy-2', 'acct-busy'],
        ['other-1', 'acct-other'],
      ] as const) {
        await webhooks.createDelivery(delivery(jobId, { accountId }));
        await webhooks.markEnded(jobId, later(jobId === 'other-1' ? 2000 : 1000));
      }
      const claimed = await webhooks.claimDue(later(5000), later(60_000), 10, ['acct-busy']);
      expect(claimed.map((d) => d.jobId)).toEqual(['other-1']);
      const rest = await webhooks.claimDue(later(5000), later(60_000), 10, []);
      expect(rest.map((d) => d.jobId).sort()).toEqual(['busy-1', 'busy-2']);
    });

    it('two handles claiming at once never both get the same delivery', async () => {
      const h = await open();
      const other = h.openSecond?.() ?? h.webhooks;
      for (let i = 0; i < 12; i++) {
        await h.webhooks.createDelivery(delivery(`j${i}`));
        await h.webhooks.markEnded(`j${i}`, later(i));
      }
      const rounds = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          (i % 2 ? h.webhooks : other).claimDue(later(1000), later(60_000), 3),
        ),
      );
      const ids = rounds.flat().map((d) => d.jobId);
      expect(ids).toHaveLength(12);
      expect(new Set(ids).size).toBe(12);
    });
  });
}
