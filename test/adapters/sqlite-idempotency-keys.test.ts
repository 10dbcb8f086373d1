/** The SQLite idempotency keys on a real database file: claims, expiry, release and take-over act as the port says. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { databasePath, openDatabase, type SqliteDatabase } from '../../src/adapters/sqlite/database.js';
import { SqliteIdempotencyKeys } from '../../src/adapters/sqlite/sqlite-idempotency-keys.js';
import type { IdempotencyEntry } from '../../src/service/ports/index.js';
import { tempDir } from './temp-dir.js';

let dir: ReturnType<typeof tempDir>;
let db: SqliteDatabase;
let keys: SqliteIdempotencyKeys;

beforeEach(() => {
  dir = tempDir();
  db = openDatabase(databasePath(dir.path));
  keys = new SqliteIdempotencyKeys(db);
});
afterEach(() => {
  db.close();
  dir.remove();
});

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

describe('SqliteIdempotencyKeys', () => {
  it('the first claim records the key; later claims get the holder; another account has its own key', async () => {
    expect(await keys.claim(entry(), LONG_AGO)).toBeNull();
    expect(await keys.claim(entry({ jobId: 'job-2', claimId: 'job-2' }), LONG_AGO)).toEqual(entry());
    expect(await keys.claim(entry({ accountId: 'account-2', claimId: 'c-2' }), LONG_AGO)).toBeNull();
    expect(await keys.get('account-1', 'k-1')).toEqual(entry());
  });

  it('a holder older than notBefore is replaced', async () => {
    await keys.claim(entry(), LONG_AGO);
    const later = entry({ claimId: 'c-2', jobId: 'job-2', createdAt: '2026-11-27T11:00:00.000Z' });
    expect(await keys.claim(later, new Date('2026-11-26T11:00:00.000Z'))).toBeNull();
    expect(await keys.get('account-1', 'k-1')).toEqual(later);
  });

  it('release and take-over act only on the claim they name', async () => {
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
    await keys.claim(entry(), LONG_AGO);
    await keys.claim(entry({ key: 'k-2', claimId: 'c-2' }), LONG_AGO);
    await keys.claim(entry({ accountId: 'account-2', claimId: 'c-3' }), LONG_AGO);
    await keys.forgetAccount('account-1');
    expect(await keys.get('account-1', 'k-1')).toBeNull();
    expect(await keys.get('account-1', 'k-2')).toBeNull();
    expect(await keys.get('account-2', 'k-1')).toEqual(entry({ accountId: 'account-2', claimId: 'c-3' }));
  });
});
