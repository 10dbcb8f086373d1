/**
 * A PostgreSQL server of the test's own (initdb in a temp dir, a free port), for the tests that stop and start
 * the database: they must never touch the machine's shared server. Run as the `postgres` user when the tests run
 * as root (PostgreSQL refuses root). `installedPostgres()` says whether the binaries are here; under CI=true
 * missing binaries are a failure, not a skip.
 * (No vitest import here: the local cluster script uses it too.)
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './free-port.js';

export interface PrivatePostgres {
  /** The server's `postgres` database, trust auth. */
  url: string;
  /** Fast shutdown (SIGINT): clients are disconnected, the port closes. */
  stop(): Promise<void>;
  /** Starts again on the same port and data directory. */
  start(): Promise<void>;
  /** Stops the server and deletes its data directory. */
  remove(): Promise<void>;
}

/** The newest installed server's bin directory (Debian: /usr/lib/postgresql/<major>/bin), or null. */
export function installedPostgres(): string | null {
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root)
    ? readdirSync(root)
        .filter((name) => existsSync(join(root, name, 'bin', 'postgres')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  const bin = majors[0] ? join(root, majors[0], 'bin') : null;
  if (!bin && process.env.CI === 'true')
    throw new Error('PostgreSQL server binaries are not installed; CI never skips these');
  return bin;
}

function serverUser(): { uid: number; gid: number } | undefined {
  if (userInfo().uid !== 0) return undefined;
  const id = (flag: string) =>
    Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
  return { uid: id('-u'), gid: id('-g') };
}

async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function startPrivatePostgres(bin: string): Promise<PrivatePostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'deckforge-pg-'));
  const user = serverUser();
  if (user) chownSync(dir, user.uid, user.gid);
  const data = join(dir, 'data');
  const initdb = spawnSync(
    join(bin, 'initdb'),
    ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8'],
    { encoding: 'utf8', ...user },
  );
  if (initdb.status !== 0) throw new Error(`initdb failed: ${initdb.stderr}`);
  const port = await freePort();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let child: ChildProcess | null = null;

  const start = async (): Promise<void> => {
    const started = spawn(
      join(bin, 'postgres'),
      ['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off'],
      { stdio: 'ignore', ...user },
    );
    child = started;
    for (let i = 0; i < 200; i++) {
      if (started.exitCode !== null) throw new Error(`postgres exited with ${started.exitCode}`);
      if (await answers(url)) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`postgres did not start on port ${port}`);
  };
  const stop = async (): Promise<void> => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGINT');
    });
  };
  await start();
  return {
    url,
    stop,
    start,
    async remove() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
