/**
 * Deckforge on PostgreSQL (DECKFORGE_DATABASE_URL), from the outside: the built CLI refuses to serve on a schema
 * that is behind and says what to run; `deckforge migrate` run twice at once migrates once; `accounts` works on the
 * shared database; and a server whose database goes away answers 500 in shape C (and /healthz 503 naming the
 * database) and serves again by itself once it is back.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PG_SCHEMA_VERSION } from '../../src/adapters/postgres/pg-schema.js';
import { createTestDatabase, testPostgresUrl } from '../support/servers/shared-stores.js';
import { startTcpRelay } from '../support/servers/tcp-relay.js';
import { ensureBuilt } from '../support/servers/build-once.js';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import {
  bearer,
  cliEnv,
  expectShapeB,
  issueToken,
  startServer,
  tempDataDir,
  type RunningServer,
} from '../support/servers/http-harness.js';
import { templateBytes } from '../support/servers/http-harness-paths.js';
import { pollUntil, submitJob } from '../support/http/jobs-polling.js';
import { titleDeck, uploadForm } from '../support/http/payloads.js';
import { CLI_PATH, REPO_ROOT } from '../support/servers/http-harness-paths.js';

const serverUrl = await testPostgresUrl();
const execFileAsync = promisify(execFile);

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

async function deckforge(args: string[], env: Record<string, string>): Promise<CliResult> {
  try {
    const { stdout, stderr } = await execFileAsync(process.execPath, [CLI_PATH, ...args], {
      cwd: REPO_ROOT,
      env: { ...cliEnv(tempDataDir()), ...env },
      timeout: 30_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

/** The same URL with a password: trust authentication ignores it, and no output may show it. */
function withPassword(url: string): string {
  const parsed = new URL(url);
  parsed.password = 'not-to-be-printed';
  return parsed.toString();
}

describe.skipIf(serverUrl === null)('Deckforge on PostgreSQL', () => {
  const drops: (() => Promise<void>)[] = [];
  const fresh = async (): Promise<string> => {
    const created = await createTestDatabase(serverUrl!);
    drops.push(created.drop);
    return created.url;
  };
  beforeAll(async () => ensureBuilt());
  afterAll(async () => {
    for (const drop of drops) await drop();
  });

  it('serve and worker refuse a schema that is behind; two migrate runs at once migrate once; accounts work', async () => {
    const url = withPassword(await fresh());
    // A complete shared set-up, as several nodes have it (a shared database alone is refused once the queue and
    // files can be shared too); none of these commands reaches the queue or the bucket before the schema check.
    const env = {
      DECKFORGE_DATABASE_URL: url,
      DECKFORGE_REDIS_URL: 'redis://127.0.0.1:6379',
      DECKFORGE_S3_BUCKET: 'deckforge-unused',
      PORT: '0',
    };
    for (const command of ['serve', 'worker']) {
      const refused = await deckforge([command], env);
      expect(refused.code, command).toBe(1);
      expect(refused.stderr).toContain(
        `deckforge ${command}: the PostgreSQL schema is at version 0, this Deckforge needs ${PG_SCHEMA_VERSION}: ` +
          'run `deckforge migrate`',
      );
    }
    const [a, b] = await Promise.all([deckforge(['migrate'], env), deckforge(['migrate'], env)]);
    expect([a.code, b.code]).toEqual([0, 0]);
    const outputs = [a.stdout, b.stdout].sort();
    expect(outputs[0]).toMatch(
      new RegExp(`: migrated from version 0 to ${PG_SCHEMA_VERSION}:\\n  1 accounts`),
    );
    expect(outputs[1]).toMatch(
      new RegExp(`: schema is up to date \\(version ${PG_SCHEMA_VERSION}\\)\\.\\n$`),
    );
    for (const output of outputs) {
      expect(output).toContain(':***@');
      expect(output).not.toContain('not-to-be-printed');
    }
    const created = await deckforge(['accounts', 'create', '--email', 'ops@example.test', '--json'], env);
    expect(created.code, created.stderr).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ email: 'ops@example.test' });
    // Another machine (another data directory) lists the same account: it lives in the shared database.
    const listed = await deckforge(['accounts', 'list'], env);
    expect(listed.stdout).toContain('ops@example.test');
  });

  describe('a server on PostgreSQL through a link that fails', () => {
    let server: RunningServer;
    let relay: Awaited<ReturnType<typeof startTcpRelay>>;
    let url: string;
    beforeAll(async () => {
      url = await fresh();
      expect((await deckforge(['migrate'], { DECKFORGE_DATABASE_URL: url })).code).toBe(0);
      relay = await startTcpRelay(new URL(serverUrl!));
      const through = new URL(url);
      through.host = `127.0.0.1:${relay.port}`;
      server = await startServer({
        overrides: { database: { url: through.toString(), poolSize: 4, statementTimeoutMs: 5_000 } },
      });
    });
    afterAll(async () => {
      await relay?.up().catch(() => undefined);
      await server?.close();
      await relay?.down();
    });

    it('answers 500 in shape C while the database is away, and serves again when it is back', async () => {
      const account = await server.signUp();
      const usage = () => fetch(`${server.base}/v1.0/usage`, { headers: bearer(account.token) });
      expect((await usage()).status).toBe(200);
      // The token really is in PostgreSQL, not in the data directory's SQLite file.
      const direct = new pg.Client({ connectionString: url });
      await direct.connect();
      const { rows } = await direct.query<{ n: number }>('SELECT COUNT(*)::int AS n FROM tokens');
      await direct.end();
      expect(rows[0]?.n).toBe(1);

      await relay.down();
      const failed = await usage();
      expect(failed.status).toBe(500);
      expect(await failed.json()).toEqual({
        statusCode: 500,
        title: 'Error',
        detail: expect.stringMatching(/See the server logs/),
      });
      const health = await fetch(`${server.base}/healthz`);
      expect(health.status).toBe(503);
      expect(await health.json()).toMatchObject({ status: 'unavailable', checks: { database: false } });
      const logged = server.logs.map(
        (line) => JSON.parse(line) as { level: number; err?: { type?: string } },
      );
      expect(logged.some((l) => l.level === 50 && l.err?.type === 'StoreUnavailableError')).toBe(true);

      await relay.up();
      expect((await usage()).status).toBe(200);
      expect((await fetch(`${server.base}/healthz`)).status).toBe(200);
    });

    it('runs a job whose record is in PostgreSQL, and retention deletes it there', async () => {
      const owner = await server.signUp();
      const jobId = await submitJob(server.base, owner.token, uploadForm(titleDeck(2)));
      const { last } = await pollUntil(server.base, owner.token, jobId, ['SUCCEEDED', 'FAILED']);
      expect(last.status).toBe('SUCCEEDED');
      const download = await fetch(last.file_url ?? '');
      expect(download.status).toBe(200);
      await expectValidPptx(new Uint8Array(await download.arrayBuffer()), templateBytes());
      const direct = new pg.Client({ connectionString: url });
      await direct.connect();
      try {
        const row = await direct.query<{ state: string; slide_count: number }>(
          'SELECT state, slide_count FROM jobs WHERE id = $1',
          [jobId],
        );
        expect(row.rows).toEqual([{ state: 'SUCCEEDED', slide_count: 2 }]);
        const used = await direct.query<{ used: number }>(
          'SELECT SUM(used_slides)::int AS used FROM usage_periods p JOIN accounts a ON a.id = p.account_id WHERE a.email = $1',
          [owner.email],
        );
        expect(used.rows[0]?.used).toBe(2);

        server.clock.advance(25 * 3_600_000); // past the 24 h retention (and the token's 24 h)
        const renewed = await issueToken(server.base, owner);
        let response: Response | undefined;
        for (let attempt = 0; attempt < 50; attempt += 1) {
          response = await fetch(`${server.base}/v2.0/jobs/${jobId}/status`, { headers: bearer(renewed) });
          if (response.status === 404) break;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        await expectShapeB(response!, 404, 'Not Found');
        const gone = await direct.query('SELECT 1 FROM jobs WHERE id = $1', [jobId]);
        expect(gone.rowCount).toBe(0);
      } finally {
        await direct.end();
      }
    });
  });
});
