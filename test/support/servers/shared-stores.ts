/**
 * Where the shared-store tests find PostgreSQL: DECKFORGE_TEST_DATABASE_URL, else the local server
 * (postgres://postgres@127.0.0.1:5432/postgres) when it answers. Without one these suites skip, and
 * shared-store-notice.ts says so in one line at the top of the run; under CI=true a missing server is a failure.
 * (No vitest import here: vitest's globalSetup uses it too.)
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const DATABASE_URL_VARIABLE = 'DECKFORGE_TEST_DATABASE_URL';
const LOCAL_POSTGRES = 'postgres://postgres@127.0.0.1:5432/postgres';

async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The server to test against, or null (only outside CI) when none answers. */
export async function testPostgresUrl(): Promise<string | null> {
  const given = process.env[DATABASE_URL_VARIABLE]?.trim();
  const url = given || LOCAL_POSTGRES;
  if (await answers(url)) return url;
  if (given || process.env.CI === 'true') {
    throw new Error(
      `PostgreSQL does not answer at ${given ? DATABASE_URL_VARIABLE : url}; CI never skips these`,
    );
  }
  return null;
}

/** A database of its own for one test file, created empty on `serverUrl`; `drop()` removes it. */
export async function createTestDatabase(serverUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `deckforge_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const cleaner = new pg.Client({ connectionString: serverUrl });
      await cleaner.connect();
      try {
        await cleaner.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await cleaner.end();
      }
    },
  };
}
