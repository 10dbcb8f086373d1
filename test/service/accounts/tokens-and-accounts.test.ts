/** Token issue and verification, account administration, on a real SQLite file with an injected clock. */
import { afterEach, describe, expect, it } from 'vitest';
import {
  InvalidCredentialsError,
  InvalidInputError,
  MissingCredentialsError,
  UnauthorizedError,
} from '../../../src/service/errors.js';
import { Database } from '../../../src/adapters/sqlite/driver.js';
import { databasePath } from '../../../src/adapters/sqlite/database.js';
import { createLogger } from '../../../src/composition/index.js';
import { deck, startHarness, upload, waitForJob, type Harness } from '../service-harness.js';

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

describe('tokens', () => {
  it('issues a token for e-mail + password + key, which then authenticates', async () => {
    h = await startHarness();
    const created = await h.runtime.admin.create({
      email: 'Ann@Example.test',
      password: 'correct horse battery',
    });
    const issued = await h.service.issueToken({
      username: 'ann@example.test',
      password: 'correct horse battery',
      key: created.key,
    });
    expect(issued.username).toBe('ann@example.test');
    expect(issued.hasSubscription).toBe(true);
    // 32 random bytes, then the expiry in Unix seconds, base 36.
    expect(issued.accessToken).toMatch(/^[A-Za-z0-9_-]{43}\.[0-9a-z]+$/);
    const account = await h.service.authenticate(issued.accessToken);
    expect(account).toMatchObject({ email: 'ann@example.test', plan: 'Free' });
  });

  it('names the missing fields, and refuses any wrong part of the credentials alike', async () => {
    h = await startHarness();
    const created = await h.runtime.admin.create({
      email: 'ann@example.test',
      password: 'correct horse battery',
    });
    await expect(h.service.issueToken({ username: 'ann@example.test' })).rejects.toThrow(
      MissingCredentialsError,
    );
    await expect(h.service.issueToken({ password: 'x', key: 'y' })).rejects.toThrow(/missing: username/);
    const wrong = [
      { username: 'ann@example.test', password: 'wrong password!', key: created.key },
      { username: 'ann@example.test', password: 'correct horse battery', key: 'wrong-key' },
      { username: 'bob@example.test', password: 'correct horse battery', key: created.key },
    ];
    for (const credentials of wrong) {
      await expect(h.service.issueToken(credentials)).rejects.toThrow(InvalidCredentialsError);
    }
  });

  it('a token lasts 24 hours (injected clock)', async () => {
    h = await startHarness();
    const { token } = await h.signUp();
    h.clock.advance(24 * 3600_000 - 1000);
    await expect(h.service.authenticate(token)).resolves.toBeTruthy();
    h.clock.advance(2000);
    await expect(h.service.authenticate(token)).rejects.toThrow(/expired/);
  });

  it('a token the sweeper has already deleted still says it expired, not that it is unknown', async () => {
    h = await startHarness({ runtime: { sweepEveryMs: 50 } });
    const { token } = await h.signUp();
    h.clock.advance(3 * 24 * 3600_000);
    const db = new Database(databasePath(h.dataDir), { readonly: true });
    try {
      const count = () => (db.prepare('SELECT COUNT(*) AS n FROM tokens').get() as { n: number }).n;
      for (let waited = 0; count() > 0 && waited < 10_000; waited += 50)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(count()).toBe(0);
    } finally {
      db.close();
    }
    await expect(h.service.authenticate(token)).rejects.toThrow(
      'Bearer token has expired: request a new one from /v1.0/token/create.',
    );
  });

  it('refuses missing and unknown tokens', async () => {
    h = await startHarness();
    await expect(h.service.authenticate(undefined)).rejects.toThrow(UnauthorizedError);
    await expect(h.service.authenticate('made-up')).rejects.toThrow(/invalid or has been revoked/);
  });

  it('verifies from the database: a second runtime on the same data accepts the token', async () => {
    h = await startHarness();
    const { token, email } = await h.signUp();
    const other = await startHarness({ dataDir: h.dataDir, clock: h.clock });
    try {
      expect((await other.service.authenticate(token)).email).toBe(email);
    } finally {
      await other.close();
    }
  });

  it('rotating the key revokes every token and the old key stops working', async () => {
    h = await startHarness();
    const user = await h.signUp();
    const rotated = await h.runtime.admin.rotateKey(user.email);
    expect(rotated.revokedTokens).toBe(1);
    await expect(h.service.authenticate(user.token)).rejects.toThrow(UnauthorizedError);
    await expect(
      h.service.issueToken({ username: user.email, password: user.password, key: user.key }),
    ).rejects.toThrow(InvalidCredentialsError);
    await expect(
      h.service.issueToken({ username: user.email, password: user.password, key: rotated.key }),
    ).resolves.toBeTruthy();
  });
});

describe('account administration', () => {
  it('creates with a generated password, lists, changes plan; refuses unknown plans and duplicates', async () => {
    h = await startHarness();
    const created = await h.runtime.admin.create({ email: 'ann@example.test', plan: 'tiny' });
    expect(created.plan).toBe('Tiny');
    expect(created.password.length).toBeGreaterThanOrEqual(20);
    expect(created.key.length).toBeGreaterThanOrEqual(32);
    await expect(h.runtime.admin.create({ email: 'ann@example.test' })).rejects.toThrow(/already exists/);
    await expect(h.runtime.admin.create({ email: 'bob@example.test', plan: 'Gold' })).rejects.toThrow(
      InvalidInputError,
    );
    await expect(h.runtime.admin.create({ email: 'not-an-email' })).rejects.toThrow(/not an e-mail address/);
    expect((await h.runtime.admin.setPlan('ann@example.test', 'Slow')).plan).toBe('Slow');
    expect((await h.runtime.admin.list()).map((a) => [a.email, a.plan])).toEqual([
      ['ann@example.test', 'Slow'],
    ]);
  });

  it('creates the first account only on an empty database', async () => {
    h = await startHarness();
    const first = await h.runtime.admin.ensureFirstAccount();
    expect(first?.email).toBe('admin@deckforge.local');
    expect(await h.runtime.admin.ensureFirstAccount()).toBeNull();
    const issued = await h.service.issueToken({
      username: first?.email,
      password: first?.password,
      key: first?.key,
    });
    expect(issued.username).toBe('admin@deckforge.local');
  });
});

describe('logs', () => {
  it('carry job ids and never a password, key or token', async () => {
    const lines: string[] = [];
    const logger = createLogger({ logLevel: 'trace' }, { write: (line: string) => void lines.push(line) });
    h = await startHarness({ runtime: { logger, createFirstAccount: true } });
    const first = h.runtime.firstAccount;
    const user = await h.signUp();
    const { jobId } = await h.service.submitJob(user.account, upload(deck(1)));
    await waitForJob(h.service, user.account, jobId);
    await h.service
      .issueToken({ username: user.email, password: 'wrong password', key: user.key })
      .catch(() => undefined);
    const text = lines.join('');
    expect(text).toContain(jobId);
    for (const secret of [user.password, user.key, user.token, first?.password, first?.key]) {
      expect(secret && secret.length > 8).toBe(true);
      expect(text).not.toContain(secret);
    }
  });
});
