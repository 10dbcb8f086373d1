/** SessionStore and OneTimeTokenStore contracts (the console's sessions and one-time links), for every adapter. */
import { afterEach, describe, expect, it } from 'vitest';
import type {
  OneTimeTokenRecord,
  OneTimeTokenStore,
  SessionRecord,
  SessionStore,
} from '../../../src/service/ports/index.js';

export interface ConsoleStoresHarness {
  sessions: SessionStore;
  oneTimeTokens: OneTimeTokenStore;
  close(): Promise<void>;
}

const session = (idHash: string, overrides: Partial<SessionRecord> = {}): SessionRecord => ({
  idHash,
  accountId: 'acct-1',
  csrfToken: `csrf-${idHash}`,
  createdAt: '2026-11-21T10:00:00.000Z',
  lastSeenAt: '2026-11-21T10:00:00.000Z',
  expiresAt: '2026-11-28T10:00:00.000Z',
  ...overrides,
});

const link = (tokenHash: string, overrides: Partial<OneTimeTokenRecord> = {}): OneTimeTokenRecord => ({
  tokenHash,
  accountId: 'acct-1',
  purpose: 'reset-password',
  createdAt: '2026-11-21T10:00:00.000Z',
  expiresAt: '2026-11-21T11:00:00.000Z',
  usedAt: null,
  ...overrides,
});

export function describeConsoleStoresContract(name: string, make: () => Promise<ConsoleStoresHarness>): void {
  describe(`SessionStore and OneTimeTokenStore contract: ${name}`, () => {
    let harness: ConsoleStoresHarness | null = null;
    const open = async (): Promise<ConsoleStoresHarness> => (harness = await make());
    afterEach(async () => {
      await harness?.close();
      harness = null;
    });

    it('finds, touches and deletes sessions; anonymous ones have no account', async () => {
      const { sessions } = await open();
      await sessions.create(session('s1'));
      await sessions.create(session('anon', { accountId: null }));
      expect(await sessions.find('s1')).toEqual(session('s1'));
      expect((await sessions.find('anon'))?.accountId).toBeNull();
      await sessions.touch('s1', '2026-11-21T10:05:00.000Z');
      expect((await sessions.find('s1'))?.lastSeenAt).toBe('2026-11-21T10:05:00.000Z');
      await sessions.delete('s1');
      expect(await sessions.find('s1')).toBeNull();
      expect(await sessions.find('unknown')).toBeNull();
    });

    it("ends an account's other sessions, and expired or idle ones", async () => {
      const { sessions } = await open();
      await sessions.create(session('mine'));
      await sessions.create(session('laptop'));
      await sessions.create(session('phone'));
      await sessions.create(session('theirs', { accountId: 'acct-2' }));
      expect(await sessions.deleteForAccount('acct-1', 'mine')).toBe(2);
      expect(await sessions.find('mine')).not.toBeNull();
      expect(await sessions.find('theirs')).not.toBeNull();
      await sessions.create(session('ended', { expiresAt: '2026-11-21T12:00:00.000Z' }));
      await sessions.create(session('idle', { lastSeenAt: '2026-11-21T09:00:00.000Z' }));
      const removed = await sessions.deleteExpired(
        new Date('2026-11-21T12:00:00.000Z'),
        new Date('2026-11-21T09:30:00.000Z'),
      );
      expect(removed).toBe(2);
      expect([await sessions.find('ended'), await sessions.find('idle')]).toEqual([null, null]);
      expect(await sessions.deleteForAccount('acct-1')).toBe(1);
    });

    it('a one-time link is used once, and forgotten after it expires', async () => {
      const { oneTimeTokens } = await open();
      await oneTimeTokens.create(link('t1'));
      await oneTimeTokens.create(
        link('t2', { purpose: 'confirm-email', expiresAt: '2026-11-23T10:00:00.000Z' }),
      );
      expect(await oneTimeTokens.find('t1')).toEqual(link('t1'));
      const clicks = await Promise.all([
        oneTimeTokens.markUsed('t1', '2026-11-21T10:10:00.000Z'),
        oneTimeTokens.markUsed('t1', '2026-11-21T10:10:01.000Z'),
      ]);
      expect(clicks.filter(Boolean)).toHaveLength(1);
      expect((await oneTimeTokens.find('t1'))?.usedAt).toMatch(/^2026-11-21T10:10:0[01]\.000Z$/);
      expect(await oneTimeTokens.deleteExpired(new Date('2026-11-22T00:00:00.000Z'))).toBe(1);
      expect(await oneTimeTokens.find('t1')).toBeNull();
      expect((await oneTimeTokens.find('t2'))?.purpose).toBe('confirm-email');
    });
  });
}
