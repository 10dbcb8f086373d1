/**
 * Child-process tests (restart recovery, the CLI's `accounts create` and `generate`) run the built `bin/deckforge.js`, so
 * `dist/` must match `src/`. Test files run in parallel processes: one builds under a lock directory, the
 * others wait. dist/.build-started, written when a build starts (here, or by `npm run build:dist`'s `prebuild:dist`),
 * skips the build when nothing in src/ (or packages/client/src/) changed since: a clone built by `npm ci` is not built again, nor is a copy
 * of it that kept the files' times (CI's run without the corpus).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from './http-harness-paths.js';

const run = promisify(execFile);
const LOCK = join(REPO_ROOT, 'dist', '.build-lock');
const STAMP = join(REPO_ROOT, 'dist', '.build-started');
const BUNDLE = join(REPO_ROOT, 'dist', 'cli', 'generate-command.bundle.js');

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function upToDate(): boolean {
  return (
    existsSync(STAMP) &&
    existsSync(join(REPO_ROOT, 'dist', 'cli', 'main.js')) &&
    existsSync(BUNDLE) &&
    existsSync(join(REPO_ROOT, 'dist', 'console', 'manifest.json')) &&
    existsSync(join(REPO_ROOT, 'dist', 'client', 'index.js')) &&
    statSync(STAMP).mtimeMs >=
      Math.max(newestMtime(join(REPO_ROOT, 'src')), newestMtime(join(REPO_ROOT, 'packages', 'client', 'src')))
  );
}

export async function ensureBuilt(): Promise<void> {
  for (;;) {
    if (upToDate()) return;
    try {
      mkdirSync(join(REPO_ROOT, 'dist'), { recursive: true });
      mkdirSync(LOCK);
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
      continue;
    }
    try {
      if (upToDate()) return;
      const startedAt = new Date();
      // What `npm install` builds (package.json "build:dist"): the server and CLI, the generate and generation
      // thread bundles, the typed client (`deckforge/client`) and the console's browser code.
      await run('npm', ['run', '--silent', 'build:dist'], { cwd: REPO_ROOT, maxBuffer: 16 * 2 ** 20 });
      if (!existsSync(join(REPO_ROOT, 'dist', 'cli', 'main.js')))
        throw new Error('npm run build:dist produced no dist/cli/main.js');
      writeFileSync(STAMP, startedAt.toISOString());
      const stampTime = startedAt.getTime() / 1000;
      // The stamp must be older than any edit made while the build ran, so such an edit triggers a rebuild.
      utimesSync(STAMP, stampTime, stampTime);
      return;
    } finally {
      rmSync(LOCK, { recursive: true, force: true });
    }
  }
}
