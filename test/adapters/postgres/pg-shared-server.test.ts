/**
 * What only a shared PostgreSQL server shows: migrations run by several nodes at once, the quota held exact by
 * three separate pools, a token revoked through one pool refused by another at once, and outages (the server
 * unreachable, connections killed, a statement too slow) surfacing as StoreUnavailableError, with the same pool
 * working again once the server is back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SystemClock } from '../../../src/adapters/clock/system-clock.js';
import { PgDatabase } from '../../../src/adapters/postgres/pg-database.js';
import { PG_MIGRATIONS } from '../../../src/adapters/postgres/pg-migrations.js';
import {
  assertPgSchemaCurrent,
  migratePg,
  PG_SCHEMA_VERSION,
  pgSchemaVersion,
  SchemaBehindError,
} from '../../../src/adapters/postgres/pg-schema.js';
import { PgTokenStore } from '../../../src/adapters/postgres/pg-token-store.js';
import { PgUsageLedger } from '../../../src/adapters/postgres/pg-usage-ledger.js';
import { StoreUnavailableError } from '../../../src/service/ports/index.js';
import { createTestDatabase, testPostgresUrl } from '../../support/servers/shared-stores.js';
import { startTcpRelay } from '../../support/servers/tcp-relay.js';

const serverUrl = await testPostgresUrl();
const clock = new SystemClock();

describe.skipIf(serverUrl === null)('PostgreSQL shared by several nodes', () => {
  const pools: PgDatabase[] = [];
  const databases: Awaited<ReturnType<typeof createTestDatabase>>[] = [];
  const pool = (url: string, settings: Partial<ConstructorParameters<typeof PgDatabase>[0]> = {}) => {
    const created = new PgDatabase({ url, maxConnections: 5, ...settings });
    pools.push(created);
    return created;
  };
  const freshDatabase = async () => {
    const created = await createTestDatabase(serverUrl!);
    databases.push(created);
    return created.url;
  };
  let url: string;

  beforeAll(async () => {
    url = await freshDatabase();
    await migratePg(pool(url));
  });
  afterAll(async () => {
    for (const p of pools) await p.close().catch(() => undefined);
    for (const d of databases) await d.drop();
  });

  it('four nodes migrating one empty database at once: one applies every version, the others find nothing to do', async () => {
    const target = await freshDatabase();
    const nodes = Array.from({ length: 4 }, () => pool(target));
    expect(await pgSchemaVersion(nodes[0]!)).toBe(0);
    await expect(assertPgSchemaCurrent(nodes[0]!)).rejects.toThrow(/run `deckforge migrate`/);
    const reports = await Promise.all(nodes.map((node) => migratePg(node)));
    const appliers = reports.filter((r) => r.applied.length > 0);
    expect(appliers).toHaveLength(1);
    expect(appliers[0]).toEqual({
      from: 0,
      to: PG_SCHEMA_VERSION,
      applied: PG_MIGRATIONS.map((m) => `${m.version} ${m.name}`),
    });
    for (const r of reports.filter((x) => x.applied.length === 0)) {
      expect(r).toEqual({ from: PG_SCHEMA_VERSION, to: PG_SCHEMA_VERSION, applied: [] });
    }
    await expect(assertPgSchemaCurrent(nodes[3]!)).resolves.toBeUndefined();
    expect(await migratePg(nodes[1]!)).toEqual({
      from: PG_SCHEMA_VERSION,
      to: PG_SCHEMA_VERSION,
      applied: [],
    });
  });

  it('a schema behind this build is refused with what to run; migration 2 gives older tokens ids', async () => {
    const target = await freshDatabase();
    const node = pool(target);
    await migratePg(node, PG_MIGRATIONS.slice(0, 1));
    const behind = await assertPgSchemaCurrent(node).catch((e: unknown) => e);
    expect(behind).toBeInstanceOf(SchemaBehindError);
    expect((behind as Error).message).toMatch(
      new RegExp(`version 1, this Deckforge needs ${PG_SCHEMA_VERSION}: run \`deckforge migrate\``),
    );
    await node.query(
      `INSERT INTO tokens (token_hash, account_id, issued_at, expires_at)
       VALUES ('h1', 'a1', '2026-11-21T08:00:00Z', '2999-01-01T00:00:00Z'),
              ('h2', 'a1', '2026-11-21T09:00:00Z', '2999-01-01T00:00:00Z')`,
    );
    expect((await migratePg(node)).applied.map((a) => a.split(' ')[0])).toEqual(
      PG_MIGRATIONS.slice(1).map((m) => String(m.version)),
    );
    const live = await new PgTokenStore(node, clock).listLive('a1', new Date('2026-11-22T00:00:00Z'));
    expect(live.map((t) => t.tokenHash)).toEqual(['h2', 'h1']);
    expect(new Set(live.map((t) => t.id)).size).toBe(2);
    expect(live.every((t) => /^[0-9a-f]{18}$/.test(t.id))).toBe(true);
    expect(live.every((t) => t.name === null)).toBe(true); // migration 3: tokens made before it have no name
  });

  it('50 concurrent reservations through 3 separate pools against an allowance that fits 10: exactly 10, used exact', async () => {
    const ledgers = [pool(url), pool(url), pool(url)].map((p) => new PgUsageLedger(p, clock));
    const request = { accountId: 'burst', periodStart: '2026-11-01', slides: 10, allowance: 100 };
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        ledgers[i % 3]!.reserve({ ...request, jobId: i % 2 ? `job-${i}` : null }),
      ),
    );
    const granted = outcomes.flatMap((o) => (o.granted ? [o.reservationId] : []));
    expect(granted).toHaveLength(10);
    expect(outcomes.filter((o) => !o.granted).every((o) => !o.granted && o.used === 100)).toBe(true);
    // Every node settles what it was granted, at once, one slide short each: used is exact, nothing stays reserved.
    await Promise.all(
      granted.map((reservationId, i) =>
        ledgers[i % 3]!.write({ settlements: [{ reservationId, slides: 9 }], apiCalls: [] }),
      ),
    );
    expect(await ledgers[2]!.periodUsage('burst', '2026-11-01')).toEqual({
      usedSlides: 90,
      reservedSlides: 0,
    });
    const afterwards = await ledgers[1]!.reserve({ ...request, jobId: null, slides: 11 });
    expect(afterwards).toEqual({ granted: false, used: 90 });
  });

  it('a token revoked through one pool is refused through another at once', async () => {
    const [nodeA, nodeB] = [new PgTokenStore(pool(url), clock), new PgTokenStore(pool(url), clock)];
    const token = {
      id: 'rev1',
      name: null,
      tokenHash: 'hash-rev1',
      accountId: 'acct-rev',
      issuedAt: '2026-11-21T08:00:00.000Z',
      expiresAt: '2999-01-01T00:00:00.000Z',
      lastUsedAt: null,
    };
    await nodeA.save(token);
    expect(await nodeB.find('hash-rev1')).toEqual(token);
    expect(await nodeA.revokeAll('acct-rev')).toBe(1);
    expect(await nodeB.find('hash-rev1')).toBeNull();
  });

  it('a server that cannot be reached: StoreUnavailableError within the connect timeout, then recovery', async () => {
    const proxy = await startTcpRelay(new URL(serverUrl!));
    try {
      const through = new URL(url);
      through.host = `127.0.0.1:${proxy.port}`;
      const node = pool(through.toString(), { connectTimeoutMs: 1_000 });
      expect((await node.query<{ n: number }>('SELECT 1 AS n')).rows[0]?.n).toBe(1);
      await proxy.down(); // every open connection cut, nothing answers on the port
      const started = Date.now();
      const failed = await node.query('SELECT 1').catch((e: unknown) => e);
      expect(failed).toBeInstanceOf(StoreUnavailableError);
      expect((failed as Error).message).toMatch(/^PostgreSQL unavailable: /);
      expect(Date.now() - started).toBeLessThan(3_000);
      await expect(new PgUsageLedger(node, clock).periodUsage('a', '2026-11-01')).rejects.toBeInstanceOf(
        StoreUnavailableError,
      );
      await proxy.up();
      expect((await node.query<{ n: number }>('SELECT 2 AS n')).rows[0]?.n).toBe(2);
    } finally {
      await proxy.down();
    }
  });

  it('connections killed by the server (pg_terminate_backend) and a statement past its timeout: typed errors, the pool goes on', async () => {
    const node = pool(url, { applicationName: 'deckforge-outage-test', statementTimeoutMs: 500 });
    const admin = pool(url);
    const running = node.query('SELECT pg_sleep(5)').catch((e: unknown) => e);
    await waitFor(async () => (await countBackends(admin, 'deckforge-outage-test')) > 0);
    await admin.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'deckforge-outage-test'`,
    );
    expect(await running).toBeInstanceOf(StoreUnavailableError);
    const slow = await node.query('SELECT pg_sleep(2)').catch((e: unknown) => e);
    expect(slow).toBeInstanceOf(StoreUnavailableError);
    expect((slow as Error).message).toMatch(/statement timeout/);
    expect((await node.query<{ n: number }>('SELECT 3 AS n')).rows[0]?.n).toBe(3);
    // A transaction on a killed connection fails typed too, and leaves no broken connection behind.
    const ledger = new PgUsageLedger(node, clock);
    expect(
      (
        await ledger.reserve({
          accountId: 'x',
          periodStart: '2026-11-01',
          slides: 1,
          allowance: 5,
          jobId: null,
        })
      ).granted,
    ).toBe(true);
  });
});

async function countBackends(admin: PgDatabase, applicationName: string): Promise<number> {
  const { rows } = await admin.query<{ n: number }>(
    `SELECT COUNT(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 AND state = 'active'`,
    [applicationName],
  );
  return rows[0]?.n ?? 0;
}

async function waitFor(condition: () => Promise<boolean>): Promise<void> {
  const until = Date.now() + 5_000;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error('condition not met within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
