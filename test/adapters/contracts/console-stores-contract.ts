/**
 * The console's stores: AccountStore's account states, SessionStore and OneTimeTokenStore. Every adapter (SQLite
 * now, PostgreSQL later) runs this suite unchanged; `make` returns fresh, empty stores.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type {
  AccountRecord,
  AccountStore,
  OneTimeTokenRecord,
  OneTimeTokenStore,
  SessionRecord,
  SessionStore,
  TokenStore,
} from '../../../src/service/ports/index.js';

export interface ConsoleStoresHarness {
  accounts: AccountStore;
  tokens: TokenStore;
  sessions: SessionStore;
  oneTimeTokens: OneTimeTokenStore;
  close(): Promise<void>;
}

const T0 = '2026-11-21T10:00:00.000Z';

function account(id: string): AccountRecord {
  return {
    id,
    email: `${id}@example.test`,
    passwordHash: 'scrypt$…',
    keyHash: 'ab'.repeat(32),
    plan: 'Free',
    subscriptionStart: T0,
    createdAt: T0,
    emailConfirmedAt: null,
    disabledAt: null,
    passwordChangedAt: null,
    keyCreatedAt: T0,
  };
}

function session(
  idHash: string,
  accountId: string | null,
  overrides: Partial<SessionRecord> = {},
): SessionRecord {
  return {
    idHash,
    accountId,
    csrfToken: `csrf-${idHash}`,
    createdAt: T0,
    lastSeenAt: T0,
    expiresAt: '2026-11-28T10:00:00.000Z',
    ...overrides,
  };
}

function link(tokenHash: string, overrides: Partial<OneTimeTokenRecord> = {}): OneTimeTokenRecord {
  return {
    tokenHash,
    accountId: 'a1',
    purpose: 'reset-password',
    createdAt: T0,
    expiresAt: '2026-11-21T11:00:00.000Z',
    usedAt: null,
    ...overrides,
  };
}

export function describeConsoleStoresContract(name: string, make: () => Promise<ConsoleStoresHarness>): void {
  describe(`console stores contract: ${name}`, () => {
    let harness: ConsoleStoresHarness | null = null;
    const open = async (): Promise<ConsoleStoresHarness> => (harness = await make());
    afterEach(async () => {
      await harness?.close();
      harness = null;
    });

    it('keeps the account states: confirmed once, disabled and enabled, password and key times', async () => {
      const { accounts } = await open();
      await accounts.create(account('a1'));
      expect(await accounts.findById('a1')).toMatchObject({ emailConfirmedAt: null, disabledAt: null });
      expect(await accounts.confirmEmail('a1', '2026-11-21T10:05:00.000Z')).toBe(true);
      expect(await accounts.confirmEmail('a1', '2026-11-21T10:09:00.000Z')).toBe(false);
      expect(await accounts.setDisabled('a1', '2026-11-21T10:06:00.000Z')).toBe(true);
      expect(await accounts.setPasswordHash('a1', 'scrypt$new', '2026-11-21T10:07:00.000Z')).toBe(true);
      expect(await accounts.setKeyHash('a1', 'cd'.repeat(32), '2026-11-21T10:08:00.000Z')).toBe(true);
      expect(await accounts.findById('a1')).toMatchObject({
        emailConfirmedAt: '2026-11-21T10:05:00.000Z',
        disabledAt: '2026-11-21T10:06:00.000Z',
        passwordHash: 'scrypt$new',
        passwordChangedAt: '2026-11-21T10:07:00.000Z',
        keyHash: 'cd'.repeat(32),
        keyCreatedAt: '2026-11-21T10:08:00.000Z',
      });
      expect(await accounts.setDisabled('a1', null)).toBe(true);
      expect((await accounts.findById('a1'))?.disabledAt).toBeNull();
      for (const missing of [
        accounts.confirmEmail('nobody', T0),
        accounts.setDisabled('nobody', T0),
        accounts.setPasswordHash('nobody', 'x', T0),
        accounts.delete('nobody'),
      ]) {
        expect(await missing).toBe(false);
      }
    });

    it('deletes an account, whose address is then free again', async () => {
      const { accounts } = await open();
      await accounts.create(account('a1'));
      expect(await accounts.delete('a1')).toBe(true);
      expect(await accounts.findById('a1')).toBeNull();
      expect(await accounts.count()).toBe(0);
      await accounts.create({ ...account('a2'), email: 'a1@example.test' });
      expect((await accounts.findByEmail('a1@example.test'))?.id).toBe('a2');
    });

    it('forgets every token of one account, revoked or not, and no other', async () => {
      const { tokens } = await open();
      const t = (tokenHash: string, accountId: string) => ({
        id: `id-${tokenHash}`,
        name: null,
        tokenHash,
        accountId,
        issuedAt: T0,
        expiresAt: '2026-11-22T10:00:00.000Z',
        lastUsedAt: null,
      });
      await tokens.save(t('h1', 'a1'));
      await tokens.save(t('h2', 'a1'));
      await tokens.save(t('h3', 'b1'));
      await tokens.revokeAll('a1');
      await tokens.save(t('h4', 'a1'));
      await tokens.forgetAccount('a1');
      expect(await tokens.find('h4')).toBeNull();
      expect(await tokens.revokeAll('a1')).toBe(0);
      expect(await tokens.find('h3')).toEqual(t('h3', 'b1'));
    });

    it("stores sessions by id hash, records activity, ends one or all of an account's but one", async () => {
      const { sessions } = await open();
      await sessions.create(session('s1', 'a1'));
      await sessions.create(session('s2', 'a1'));
      await sessions.create(session('s3', 'a1'));
      await sessions.create(session('anon', null));
      await sessions.create(session('other', 'b1'));
      expect(await sessions.find('s1')).toEqual(session('s1', 'a1'));
      expect(await sessions.find('anon')).toEqual(session('anon', null));
      expect(await sessions.find('unknown')).toBeNull();
      await sessions.touch('s1', '2026-11-21T11:00:00.000Z');
      expect((await sessions.find('s1'))?.lastSeenAt).toBe('2026-11-21T11:00:00.000Z');
      await sessions.delete('s3');
      expect(await sessions.find('s3')).toBeNull();
      expect(await sessions.deleteForAccount('a1', 's1')).toBe(1);
      expect(await sessions.find('s1')).not.toBeNull();
      expect(await sessions.find('s2')).toBeNull();
      expect(await sessions.deleteForAccount('a1')).toBe(1);
      expect(await sessions.find('s1')).toBeNull();
      expect(await sessions.find('anon')).not.toBeNull();
      expect(await sessions.find('other')).not.toBeNull();
    });

    it('sweeps sessions past their absolute end or idle for too long', async () => {
      const { sessions } = await open();
      await sessions.create(session('ended', 'a1', { expiresAt: '2026-11-21T11:00:00.000Z' }));
      await sessions.create(session('idle', 'a1', { lastSeenAt: '2026-11-21T09:00:00.000Z' }));
      await sessions.create(session('live', 'a1', { lastSeenAt: '2026-11-21T11:30:00.000Z' }));
      const now = new Date('2026-11-21T12:00:00.000Z');
      expect(await sessions.deleteExpired(now, new Date('2026-11-21T10:00:00.000Z'))).toBe(2);
      expect(await sessions.find('live')).not.toBeNull();
    });

    it('uses a one-time link once, even when two uses race, and sweeps expired ones', async () => {
      const { oneTimeTokens } = await open();
      await oneTimeTokens.create(link('l1'));
      await oneTimeTokens.create(
        link('l2', { purpose: 'confirm-email', expiresAt: '2026-11-23T10:00:00.000Z' }),
      );
      expect(await oneTimeTokens.find('l1')).toEqual(link('l1'));
      expect(await oneTimeTokens.find('unknown')).toBeNull();
      const uses = await Promise.all([
        oneTimeTokens.markUsed('l1', '2026-11-21T10:10:00.000Z'),
        oneTimeTokens.markUsed('l1', '2026-11-21T10:10:01.000Z'),
      ]);
      expect(uses.filter(Boolean)).toHaveLength(1);
      expect((await oneTimeTokens.find('l1'))?.usedAt).toMatch(/^2026-11-21T10:10:0[01]\.000Z$/);
      expect(await oneTimeTokens.deleteExpired(new Date('2026-11-22T00:00:00.000Z'))).toBe(1);
      expect(await oneTimeTokens.find('l1')).toBeNull();
      expect((await oneTimeTokens.find('l2'))?.purpose).toBe('confirm-email');
      await oneTimeTokens.create(link('l3', { accountId: 'b1' }));
      await oneTimeTokens.forgetAccount('a1');
      expect(await oneTimeTokens.find('l2')).toBeNull();
      expect(await oneTimeTokens.find('l3')).not.toBeNull();
    });
  });
}
