/**
 * `deckforge accounts|migrate|serve` as functions (main.ts dispatches to them), on real data directories. The
 * environment is the operator's interface, so these tests set it like an operator would.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, type AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src/adapters/sqlite/migrations.js';
import { runAccounts } from '../../src/cli/accounts.js';
import { runMigrate } from '../../src/cli/migrate.js';
import { runServe } from '../../src/cli/serve.js';
import { runWorker } from '../../src/cli/worker.js';
import { tempDir } from '../support/servers/temp-dir.js';
import { deck, startHarness, upload, waitForJob } from './service-harness.js';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: { stdout: (t: string) => void out.push(t), stderr: (t: string) => void err.push(t) },
    out,
    err,
  };
}

let dir: { path: string; remove(): void };
const saved = { ...process.env };
beforeEach(() => {
  dir = tempDir('deckforge-cli-');
  process.env.DECKFORGE_DATA_DIR = dir.path;
  process.env.DECKFORGE_LOG_LEVEL = 'silent';
  process.env.DECKFORGE_WORKERS = '1';
});
afterEach(() => {
  process.env = { ...saved };
  dir.remove();
});

describe('deckforge accounts', () => {
  it('create --json prints e-mail, password and key, which then get a token from a running server', async () => {
    const h = await startHarness({ dataDir: dir.path }); // "serve" is running on the same data directory
    try {
      const c = capture();
      expect(
        await runAccounts(
          [
            'create',
            '--email',
            'Ann@Example.test',
            '--password',
            'a long password',
            '--plan',
            'starter',
            '--json',
          ],
          c.io,
        ),
      ).toBe(0);
      const printed = JSON.parse(c.out.join('')) as {
        email: string;
        password: string;
        key: string;
        plan: string;
      };
      expect(printed).toMatchObject({
        email: 'ann@example.test',
        password: 'a long password',
        plan: 'Starter',
      });
      const issued = await h.service.issueToken({
        username: printed.email,
        password: printed.password,
        key: printed.key,
      });
      expect((await h.service.authenticate(issued.accessToken)).plan).toBe('Starter');
    } finally {
      await h.close();
    }
  });

  it('create without --password generates one; list, set-plan, rotate-key and webhook-secret', async () => {
    const c = capture();
    expect(await runAccounts(['create', '--email', 'bob@example.test'], c.io)).toBe(0);
    expect(c.out.join('')).toMatch(/password: +\S{20,}/);
    expect(c.out.join('')).toMatch(/security key: +\S{30,}/);
    expect(await runAccounts(['set-plan', '--email', 'bob@example.test', '--plan', 'Business'], c.io)).toBe(
      0,
    );
    const list = capture();
    expect(await runAccounts(['list', '--json'], list.io)).toBe(0);
    expect(JSON.parse(list.out.join(''))).toEqual([
      expect.objectContaining({ email: 'bob@example.test', plan: 'Business' }),
    ]);
    const rotated = capture();
    expect(await runAccounts(['rotate-key', '--email', 'bob@example.test', '--json'], rotated.io)).toBe(0);
    expect(JSON.parse(rotated.out.join(''))).toMatchObject({ email: 'bob@example.test', revokedTokens: 0 });
    const secrets = [capture(), capture()];
    for (const s of secrets) {
      expect(await runAccounts(['webhook-secret', '--email', 'bob@example.test', '--json'], s.io)).toBe(0);
    }
    const [first, second] = secrets.map(
      (s) => (JSON.parse(s.out.join('')) as { webhookSecret: string }).webhookSecret,
    );
    expect(first).toMatch(/^whsec_\S{30,}$/);
    expect(second).toMatch(/^whsec_\S{30,}$/);
    expect(second).not.toBe(first); // rotated
  });

  it('says where the accounts are, and makes no empty database for a command that reads accounts', async () => {
    for (const args of [
      ['list'],
      ['disable', '--email', 'ann@example.test'],
      ['rotate-key', '--email', 'a@b.test'],
    ]) {
      const refused = capture();
      expect(await runAccounts(args, refused.io)).toBe(1);
      expect(refused.err.join('')).toBe(
        `deckforge accounts: no Deckforge database in ${dir.path} (DECKFORGE_DATA_DIR, default ./data of the ` +
          "current folder): run the command where 'deckforge serve' runs, or set DECKFORGE_DATA_DIR to its " +
          'data directory\n',
      );
      expect(readdirSync(dir.path)).toEqual([]);
    }
    const created = capture();
    expect(await runAccounts(['create', '--email', 'ann@example.test', '--json'], created.io)).toBe(0);
    expect(created.err.join('')).toBe(`Accounts in ${join(dir.path, 'deckforge.sqlite')}\n`);
    expect(JSON.parse(created.out.join(''))).toMatchObject({ email: 'ann@example.test' }); // stdout stays JSON
    const listed = capture();
    expect(await runAccounts(['list'], listed.io)).toBe(0);
    expect(listed.err.join('')).toContain(join(dir.path, 'deckforge.sqlite'));
    expect(listed.out.join('')).toContain('ann@example.test');
  });

  it('explains mistakes: unknown plan, duplicate, unknown account, bad options, bad configuration', async () => {
    const cases: [string[], number, RegExp][] = [
      [
        ['create', '--email', 'a@example.test', '--plan', 'Gold'],
        1,
        /no plan named "Gold"; configured plans: Free, Starter/,
      ],
      [
        ['set-plan', '--email', 'nobody@example.test', '--plan', 'Free'],
        1,
        /no account with e-mail nobody@example.test/,
      ],
      [['create'], 2, /--email is required/],
      [['create', '--email'], 2, /--email needs a value/],
      [['create', '--mail', 'x'], 2, /unknown option "--mail"/],
      [['remove'], 2, /unknown accounts command "remove"/],
      [['delete'], 2, /--email is required/],
      [['delete', '--email', 'a@example.test'], 2, /add --yes to do it/],
      [['disable', '--email', 'nobody@example.test'], 1, /no account with e-mail nobody@example.test/],
    ];
    for (const [args, code, message] of cases) {
      const c = capture();
      expect(await runAccounts(args, c.io)).toBe(code);
      expect(c.err.join('')).toMatch(message);
    }
    const dup = capture();
    await runAccounts(['create', '--email', 'a@example.test'], capture().io);
    expect(await runAccounts(['create', '--email', 'A@example.test'], dup.io)).toBe(1);
    expect(dup.err.join('')).toMatch(/already exists/);
    process.env.DECKFORGE_PLANS = '/nonexistent.json';
    const bad = capture();
    expect(await runAccounts(['list'], bad.io)).toBe(1);
    expect(bad.err.join('')).toMatch(/DECKFORGE_PLANS: cannot read/);
  });
});

describe('deckforge migrate', () => {
  it('creates the schema, then reports it is up to date', async () => {
    const first = capture();
    expect(await runMigrate([], first.io)).toBe(0);
    const latest = MIGRATIONS.at(-1)?.version;
    expect(first.out.join('')).toContain(`migrated from version 0 to ${latest}`);
    const second = capture();
    expect(await runMigrate([], second.io)).toBe(0);
    expect(second.out.join('')).toContain(`schema is up to date (version ${latest})`);
  });
});

describe('deckforge serve', () => {
  it('on an empty database prints the first account once, through io, and answers on its port', async () => {
    process.env.PORT = '0';
    const run = async () => {
      const c = capture();
      const stop = new AbortController();
      const exited = runServe([], c.io, { signal: stop.signal });
      const deadline = Date.now() + 30_000;
      while (!c.out.join('').includes('listening on')) {
        if (Date.now() > deadline)
          throw new Error(`serve did not start: ${c.out.join('')} ${c.err.join('')}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const url = /listening on (\S+)/.exec(c.out.join(''))?.[1] ?? '';
      const health = await fetch(`${url}/healthz`);
      stop.abort();
      expect(await exited).toBe(0);
      return { out: c.out.join(''), healthStatus: health.status };
    };
    const first = await run();
    expect(first.out).toMatch(/First start: an account was created/);
    expect(first.out).toMatch(/password: +\S+/);
    expect(first.out).toMatch(/security key: +\S+/);
    expect(first.out).toMatch(/plan: +Operator\n/); // the operator's own account: no 100-slide ceiling
    expect(first.healthStatus).toBe(200);
    const second = await run();
    expect(second.out).not.toMatch(/First start/);
  });

  it('says the port is taken, and which setting to change, before creating or printing anything', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen({ port: 0, host: '127.0.0.1' }, resolve));
    const port = (taken.address() as AddressInfo).port;
    try {
      process.env.PORT = String(port);
      process.env.HOST = '127.0.0.1';
      const c = capture();
      expect(await runServe([], c.io)).toBe(1);
      expect(c.out.join('')).toBe('');
      expect(c.err.join('')).toBe(
        `deckforge serve: port ${port} on 127.0.0.1 is already in use (another Deckforge, or another program); ` +
          `set PORT to a free port, e.g. PORT=${port + 1}\n`,
      );
      expect(readdirSync(dir.path)).toEqual([]); // no database, no account
    } finally {
      taken.close();
    }
  });
});

describe('deckforge worker', () => {
  it('runs the jobs an API process without a consumer queued', async () => {
    const api = await startHarness({ dataDir: dir.path, runtime: { consumeJobs: false } });
    const stop = new AbortController();
    const c = capture();
    const exited = runWorker([], c.io, { signal: stop.signal });
    try {
      const user = await api.signUp();
      const { jobId } = await api.service.submitJob(user.account, upload(deck(2)));
      const done = await waitForJob(api.service, user.account, jobId, 60_000);
      expect(done.status).toBe('SUCCEEDED');
      expect(c.out.join('')).toMatch(/worker is running 1 generation thread/);
    } finally {
      stop.abort();
      expect(await exited).toBe(0);
      await api.close();
    }
  });
});
