/** `npm start` builds again exactly when a source is newer than dist/ (scripts/build-if-stale.ts). */
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { staleReason } from '../../scripts/build-if-stale.js';
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
