/**
 * The IdempotencyKeys contract: claims, expiry, release and take-over act as the port says, and a key claimed at
 * once by many callers (through two handles when the storage is shared) is recorded for exactly one of them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { IdempotencyEntry, IdempotencyKeys } from '../../../src/service/ports/index.js';

export interface IdempotencyHarness {
  keys: IdempotencyKeys;
  /** A second handle on the same storage, the way another process would see it. */
  openSecond?: () => IdempotencyKeys;
  close(): Promise<void>;
}

const entry = (overrides: Partial<IdempotencyEntry> = {}): IdempotencyEntry => ({
  accountId: 'account-1',
  key: 'k-1',
  endpoint: 'create-async',
  fingerprint: 'f-1',
  jobId: 'job-1',
  claimId: 'job-1',
  createdAt: '2026-11-26T10:00:00.000Z',
  ...overrides,
});
const LONG_AGO = new Date('2026-11-25T00:00:00.000Z');

export function describeIdempotencyKeysContract(name: string, make: () => Promise<IdempotencyHarness>): void {
  describe(`IdempotencyKeys contract: ${name}`, () => {
    let harness: IdempotencyHarness | null = null;
    const open = async (): Promise<IdempotencyHarness> => (harness = await make());
    afterEach(async () => {
      await harness?.close();
      harness = null;
    });

    it('the first claim records the key; later claims get the holder; another account has its own key', async () => {
      const { keys } = await open();
      expect(await keys.claim(entry(), LONG_AGO)).toBeNull();
      expect(await keys.claim(entry({ jobId: 'job-2', claimId: 'job-2' }), LONG_AGO)).toEqual(entry());
      expect(await keys.claim(entry({ accountId: 'account-2', claimId: 'c-2' }), LONG_AGO)).toBeNull();
      expect(await keys.get('account-1', 'k-1')).toEqual(entry());
      expect(await keys.get('account-1', 'other')).toBeNull();
    });

    it('a holder older than notBefore is replaced', async () => {
      const { keys } = await open();
      await keys.claim(entry(), LONG_AGO);
      const later = entry({ claimId: 'c-2', jobId: 'job-2', createdAt: '2026-11-27T11:00:00.000Z' });
      expect(await keys.claim(later, new Date('2026-11-26T11:00:00.000Z'))).toBeNull();
      expect(await keys.get('account-1', 'k-1')).toEqual(later);
    });

    it('release and take-over act only on the claim they name', async () => {
      const { keys } = await open();
      await keys.claim(entry(), LONG_AGO);
      await keys.release('account-1', 'k-1', 'someone-else');
      expect(await keys.get('account-1', 'k-1')).toEqual(entry());
      const successor = entry({ claimId: 'c-3', jobId: 'job-3' });
      expect(await keys.takeOver(successor, 'someone-else')).toBe(false);
      expect(await keys.takeOver(successor, 'job-1')).toBe(true);
      expect(await keys.takeOver(entry({ claimId: 'c-4' }), 'job-1')).toBe(false);
      await keys.release('account-1', 'k-1', 'c-3');
      expect(await keys.get('account-1', 'k-1')).toBeNull();
    });

    it('forgets every key of a deleted account and no other', async () => {
      const { keys } = await open();
      await keys.claim(entry(), LONG_AGO);
      await keys.claim(entry({ key: 'k-2', claimId: 'c-2' }), LONG_AGO);
      await keys.claim(entry({ accountId: 'account-2', claimId: 'c-3' }), LONG_AGO);
      await keys.forgetAccount('account-1');
      expect(await keys.get('account-1', 'k-1')).toBeNull();
      expect(await keys.get('account-1', 'k-2')).toBeNull();
      expect(await keys.get('account-2', 'k-1')).toEqual(entry({ accountId: 'account-2', claimId: 'c-3' }));
    });

    it('20 concurrent claims of one key, through every handle: exactly one records it, the others see it', async () => {
      const h = await open();
      const handles = [h.keys, h.openSecond?.() ?? h.keys];
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          handles[i % 2]!.claim(entry({ claimId: `c-${i}`, jobId: `job-${i}` }), LONG_AGO),
        ),
      );
      const winners = outcomes.flatMap((o, i) => (o === null ? [i] : []));
      expect(winners).toHaveLength(1);
      const holder = await h.keys.get('account-1', 'k-1');
      expect(holder?.claimId).toBe(`c-${winners[0]}`);
      expect(outcomes.filter((o) => o !== null).every((o) => o?.claimId === holder?.claimId)).toBe(true);
    });
  });
}
