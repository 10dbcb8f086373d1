/** AccountStore and TokenStore contracts, shared by every adapter of these ports. */
import { afterEach, describe, expect, it } from 'vitest';
import {
  AccountExistsError,
  type AccountRecord,
  type AccountStore,
  type TokenStore,
} from '../../../src/service/ports/index.js';

export interface AccountHarness {
  accounts: AccountStore;
  tokens: TokenStore;
  close(): Promise<void>;
}

function account(email: string, id = `id-${email}`): AccountRecord {
  return {
    id,
    email,
    passwordHash: 'scrypt$…',
    keyHash: 'ab'.repeat(32),
    plan: 'Free',
    subscriptionStart: '2026-11-21T10:00:00.000Z',
    createdAt: '2026-11-21T10:00:00.000Z',
    emailConfirmedAt: null,
    disabledAt: null,
    passwordChangedAt: null,
    keyCreatedAt: '2026-11-21T10:00:00.000Z',
  };
}

export function describeAccountStoreContract(name: string, make: () => Promise<AccountHarness>): void {
  describe(`AccountStore and TokenStore contract: ${name}`, () => {
    let harness: AccountHarness | null = null;
    const open = async (): Promise<AccountHarness> => (harness = await make());
    afterEach(async () => {
      await harness?.close();
      harness = null;
    });

    it('creates, finds by e-mail (case-insensitively) and by id, lists and counts', async () => {
      const { accounts } = await open();
      await accounts.create(account('Ann@Example.test', 'a1'));
      await accounts.create(account('bob@example.test', 'b1'));
      expect((await accounts.findByEmail('ann@example.TEST'))?.id).toBe('a1');
      expect((await accounts.findById('b1'))?.email).toBe('bob@example.test');
      expect(await accounts.findByEmail('nobody@example.test')).toBeNull();
      expect((await accounts.list()).map((a) => a.email)).toEqual(['ann@example.test', 'bob@example.test']);
      expect(await accounts.count()).toBe(2);
    });

    it('refuses a second account with the same e-mail', async () => {
      const { accounts } = await open();
      await accounts.create(account('ann@example.test', 'a1'));
      await expect(accounts.create(account('ANN@example.test', 'a2'))).rejects.toBeInstanceOf(
        AccountExistsError,
      );
    });

    it('changes plan and key hash', async () => {
      const { accounts } = await open();
      await accounts.create(account('ann@example.test', 'a1'));
      expect(await accounts.setPlan('a1', 'Business')).toBe(true);
      expect(await accounts.setKeyHash('a1', 'cd'.repeat(32), '2026-11-22T10:00:00.000Z')).toBe(true);
      expect(await accounts.setPlan('missing', 'Business')).toBe(false);
      const found = await accounts.findById('a1');
      expect([found?.plan, found?.keyHash, found?.keyCreatedAt]).toEqual([
        'Business',
        'cd'.repeat(32),
        '2026-11-22T10:00:00.000Z',
      ]);
    });

    it('stores tokens by hash, revokes all of an account, forgets expired ones', async () => {
      const { tokens } = await open();
      const t = (hash: string, accountId: string, expiresAt: string) => ({
        id: `id-${hash}`,
        name: hash === 'h1' ? 'CI pipeline — nightly' : null, // a console token's name comes back as given
        tokenHash: hash,
        accountId,
        issuedAt: '2026-11-21T10:00:00.000Z',
        expiresAt,
        lastUsedAt: null,
      });
      await tokens.save(t('h1', 'a1', '2026-11-22T10:00:00.000Z'));
      await tokens.save(t('h2', 'a1', '2026-11-22T11:00:00.000Z'));
      await tokens.save(t('h3', 'b1', '2026-11-20T10:00:00.000Z'));
      expect(await tokens.find('h1')).toEqual(t('h1', 'a1', '2026-11-22T10:00:00.000Z'));
      expect(await tokens.revokeAll('a1')).toBe(2);
      expect(await tokens.find('h1')).toBeNull();
      expect(await tokens.find('h2')).toBeNull();
      expect(await tokens.deleteExpired(new Date('2026-11-21T00:00:00.000Z'))).toBe(1);
      expect(await tokens.find('h3')).toBeNull();
      expect(await tokens.find('unknown')).toBeNull();
    });

    const token = (id: string, accountId: string, issuedAt: string, expiresAt: string) => ({
      id,
      name: id === 'new' ? 'Reporting job' : null,
      tokenHash: `hash-${id}`,
      accountId,
      issuedAt,
      expiresAt,
      lastUsedAt: null,
    });

    it("lists an account's live tokens newest first, never another account's, revoked or expired ones", async () => {
      const { tokens } = await open();
      await tokens.save(token('old', 'a1', '2026-11-21T08:00:00.000Z', '2026-11-22T08:00:00.000Z'));
      await tokens.save(token('new', 'a1', '2026-11-21T09:00:00.000Z', '2026-11-22T09:00:00.000Z'));
      await tokens.save(token('gone', 'a1', '2026-11-20T07:00:00.000Z', '2026-11-21T07:00:00.000Z'));
      await tokens.save(token('other', 'b1', '2026-11-21T09:30:00.000Z', '2026-11-22T09:30:00.000Z'));
      const now = new Date('2026-11-21T10:00:00.000Z');
      expect(await tokens.listLive('a1', now)).toEqual([
        token('new', 'a1', '2026-11-21T09:00:00.000Z', '2026-11-22T09:00:00.000Z'),
        token('old', 'a1', '2026-11-21T08:00:00.000Z', '2026-11-22T08:00:00.000Z'),
      ]);
      expect((await tokens.listLive('b1', now)).map((t) => t.id)).toEqual(['other']);
      expect(await tokens.listLive('nobody', now)).toEqual([]);
    });

    it('revokes one token by id, only for its own account, and only once', async () => {
      const { tokens } = await open();
      await tokens.save(token('t1', 'a1', '2026-11-21T08:00:00.000Z', '2026-11-22T08:00:00.000Z'));
      await tokens.save(token('t2', 'a1', '2026-11-21T09:00:00.000Z', '2026-11-22T09:00:00.000Z'));
      expect(await tokens.revoke('b1', 't1')).toBe(false); // another account cannot name it
      expect(await tokens.find('hash-t1')).not.toBeNull();
      expect(await tokens.revoke('a1', 't1')).toBe(true);
      expect(await tokens.revoke('a1', 't1')).toBe(false);
      expect(await tokens.revoke('a1', 'unknown')).toBe(false);
      expect(await tokens.find('hash-t1')).toBeNull();
      expect((await tokens.find('hash-t2'))?.id).toBe('t2');
      const now = new Date('2026-11-21T10:00:00.000Z');
      expect((await tokens.listLive('a1', now)).map((t) => t.id)).toEqual(['t2']);
    });

    it('records last use, at most once per interval', async () => {
      const { tokens } = await open();
      await tokens.save(token('t1', 'a1', '2026-11-21T08:00:00.000Z', '2026-11-22T08:00:00.000Z'));
      const at = (iso: string) => new Date(iso);
      await tokens.touch('hash-t1', at('2026-11-21T10:00:00.000Z'), at('2026-11-21T09:59:00.000Z'));
      expect((await tokens.find('hash-t1'))?.lastUsedAt).toBe('2026-11-21T10:00:00.000Z');
      // 30 s later, within the minute: not written again.
      await tokens.touch('hash-t1', at('2026-11-21T10:00:30.000Z'), at('2026-11-21T09:59:30.000Z'));
      expect((await tokens.find('hash-t1'))?.lastUsedAt).toBe('2026-11-21T10:00:00.000Z');
      await tokens.touch('hash-t1', at('2026-11-21T10:01:30.000Z'), at('2026-11-21T10:00:30.000Z'));
      expect((await tokens.find('hash-t1'))?.lastUsedAt).toBe('2026-11-21T10:01:30.000Z');
      await tokens.touch('hash-unknown', at('2026-11-21T10:02:00.000Z'), at('2026-11-21T10:01:00.000Z'));
      const now = at('2026-11-21T10:05:00.000Z');
      expect((await tokens.listLive('a1', now))[0]?.lastUsedAt).toBe('2026-11-21T10:01:30.000Z');
    });
  });
}
