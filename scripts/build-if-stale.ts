/**
 * `npm start`'s first step: builds dist/ again when a source is newer than what the last build made (after a
 * `git pull`, an edit), so the server never serves yesterday's code. Nothing happens when dist/ is current.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What the build reads: a change to any of these makes dist/ stale. */
const SOURCES = [
  'src',
  'packages/client/src',
  'packages/client/package.json',
  'scripts',
  'docs',
  'package.json',
  'tsconfig.json',
];

/** What the build writes last of each of its steps; the oldest of them is when dist/ was made. */
const OUTPUTS = [
  'dist/cli/main.js',
  'dist/client/index.js',
  'dist/cli/generate-command.bundle.js',
  'dist/adapters/generation-threads/generation-thread.bundle.js',
  'dist/console/manifest.json',
];

function newestFile(path: string): { path: string; mtimeMs: number } | null {
  if (!existsSync(path)) return null;
  const stat = statSync(path);
  if (!stat.isDirectory()) return { path, mtimeMs: stat.mtimeMs };
  let newest: { path: string; mtimeMs: number } | null = null;
  for (const entry of readdirSync(path)) {
    const candidate = newestFile(join(path, entry));
    if (candidate && (!newest || candidate.mtimeMs > newest.mtimeMs)) newest = candidate;
  }
  return newest;
}

/** Why `root`'s dist/ must be built again, or null when it is current. */
export function staleReason(root: string): string | null {
  let builtAt = Infinity;
  for (const output of OUTPUTS) {
    const file = join(root, output);
    if (!existsSync(file)) return `${output} is missing`;
    builtAt = Math.min(builtAt, statSync(file).mtimeMs);
  }
  for (const source of SOURCES) {
    const newest = newestFile(join(root, source));
    if (newest && newest.mtimeMs > builtAt)
      return `${relative(root, newest.path)} changed after the last build`;
  }
  return null;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const reason = staleReason(root);
  if (reason !== null) {
    console.log(`Building first: ${reason}.`);
    const build = spawnSync('npm', ['run', 'build:dist'], { cwd: root, stdio: 'inherit' });
    process.exitCode = build.status ?? 1;
  }
}
