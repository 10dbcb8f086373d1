/**
 * What `npm install` (and `npm ci`) does in a clone once the dependencies are in (package.json "prepare"), each
 * step said in one line and its tools' output kept back unless it fails:
 * - on Node 20, SQLite's driver, better-sqlite3 12: downloaded prebuilt where its download is reachable, compiled
 *   from source (about 80 s on 2 cores) where it is not. package.json's `allowScripts` keeps npm from running
 *   its install script on every Node line: on Node 22 and later the driver is better-sqlite3 13, which ships
 *   ready to load (src/adapters/sqlite/driver.ts), and version 12 would be compiled for nothing. An npm without
 *   `allowScripts` (before 11.16) has run the script already, and then this step finds the driver built.
 * - dist/, when it is missing or older than a source (`npm run build:dist`, scripts/build-if-stale.ts).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { staleReason } from './build-if-stale.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const NODE_MAJOR = Number(process.versions.node.split('.')[0]);

function say(line: string): void {
  console.log(`deckforge: ${line}`);
}

/** Runs `command` in `cwd` through the shell, its output kept; on failure prints it and ends the install. */
function quietly(command: string, cwd: string, what: string): void {
  const started = Date.now();
  const result = spawnSync(command, { cwd, shell: true, encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
  if (result.status !== 0) {
    process.stderr.write(`${result.stdout}${result.stderr}`);
    say(`${what} failed (exit ${result.status ?? result.signal}); its output is above`);
    process.exit(1);
  }
  say(`${what}: done in ${Math.round((Date.now() - started) / 1000)} s`);
}

function sqliteDriver(): void {
  if (NODE_MAJOR >= 22) return; // better-sqlite3 13, prebuilt in its package
  const driver = join(ROOT, 'node_modules', 'better-sqlite3');
  if (existsSync(join(driver, 'build', 'Release', 'better_sqlite3.node'))) return;
  const { scripts } = JSON.parse(readFileSync(join(driver, 'package.json'), 'utf8')) as {
    scripts: { install: string };
  };
  say(
    `Node ${NODE_MAJOR}: installing better-sqlite3 12, SQLite's driver (downloaded prebuilt, or compiled from ` +
      'source where no download is reachable: about 80 s on 2 cores, once)',
  );
  // Its own install script, as npm would run it: `prebuild-install || node-gyp rebuild --release`.
  quietly(scripts.install, driver, 'better-sqlite3');
}

function distFolder(): void {
  const reason = staleReason(ROOT);
  if (reason === null) {
    say('dist/ is up to date');
    return;
  }
  say(`building dist/ (${reason}): the server, the CLI, the client and the console, about 10 s`);
  quietly('npm run --silent build:dist', ROOT, 'build');
}

sqliteDriver();
distFolder();
say('ready: `npm start` serves the API on http://127.0.0.1:8080 (or PORT)');
