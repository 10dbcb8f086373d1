/**
 * `npm start` builds again exactly when a source is newer than dist/ (scripts/build-if-stale.ts), and `npm
 * install`'s own step in a clone (scripts/prepare-clone.ts) does only what is left to do.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { staleReason } from '../../scripts/build-if-stale.js';
import { ensureBuilt } from '../support/servers/build-once.js';
import { REPO_ROOT } from '../support/servers/http-harness-paths.js';
import { tempDir } from '../support/servers/temp-dir.js';

const OUTPUTS = [
  'dist/cli/main.js',
  'dist/client/index.js',
  'dist/cli/generate-command.bundle.js',
  'dist/adapters/generation-threads/generation-thread.bundle.js',
  'dist/console/manifest.json',
];

let dir: { path: string; remove(): void } | null = null;
afterEach(() => dir?.remove());

function write(root: string, path: string, at: number): void {
  const file = join(root, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, '');
  utimesSync(file, at, at);
}

describe('npm start: build if stale', () => {
  it('builds without dist/, skips when dist/ is newer than every source, builds after a source changes', () => {
    dir = tempDir('deckforge-stale-');
    const root = dir.path;
    write(root, 'src/engine/generate.ts', 1_000);
    write(root, 'package.json', 1_000);
    expect(staleReason(root)).toBe('dist/cli/main.js is missing');
    for (const output of OUTPUTS) write(root, output, 2_000);
    expect(staleReason(root)).toBeNull();
    write(root, 'src/engine/text/fit-text.ts', 3_000); // a `git pull` brought a newer file
    expect(staleReason(root)).toBe(
      `${join('src', 'engine', 'text', 'fit-text.ts')} changed after the last build`,
    );
    for (const output of OUTPUTS) write(root, output, 4_000);
    expect(staleReason(root)).toBeNull();
    write(root, 'dist/console/manifest.json', 500); // one step of the build is older than the sources
    expect(staleReason(root)).toBe(
      `${join('src', 'engine', 'text', 'fit-text.ts')} changed after the last build`,
    );
    for (const output of OUTPUTS) write(root, output, 5_000);
    write(root, 'packages/client/src/deckforge-client.ts', 6_000); // the client's workspace, built into dist/client
    expect(staleReason(root)).toBe(
      `${join('packages', 'client', 'src', 'deckforge-client.ts')} changed after the last build`,
    );
  });
});

describe("npm install's own step in a clone (scripts/prepare-clone.ts)", () => {
  it('builds once: run again on the clone it built, it builds nothing and says so, one line a step', async () => {
    await ensureBuilt();
    const prepare = () =>
      promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', join(REPO_ROOT, 'scripts', 'prepare-clone.ts')],
        {
          cwd: REPO_ROOT,
        },
      );
    // The first run builds only when a source is newer than dist/ (never right after `npm ci`); the second never.
    await prepare();
    const { stdout, stderr } = await prepare();
    expect(stderr).toBe('');
    expect(stdout.split('\n')).toEqual([
      'deckforge: dist/ is up to date',
      'deckforge: ready: `npm start` serves the API on http://127.0.0.1:8080 (or PORT)',
      '',
    ]);
  }, 120_000);

  it("keeps npm from running better-sqlite3's install scripts for exactly the versions the lockfile installs", () => {
    // A version the lockfile moved to and allowScripts does not name would be compiled from source on every Node
    // line again (the 80 s that Node 22 and 24 do not need), with npm's "not covered by allowScripts" warning.
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
      allowScripts: Record<string, boolean>;
    };
    const lock = JSON.parse(readFileSync(join(REPO_ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { version: string }>;
    };
    const denied = ['node_modules/better-sqlite3', 'node_modules/better-sqlite3-13'].map(
      (path) => `better-sqlite3@${lock.packages[path]!.version}`,
    );
    for (const key of denied) expect(pkg.allowScripts[key], key).toBe(false);
  });
});
