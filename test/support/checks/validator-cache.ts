/**
 * Validator results of templates kept on disk by content hash, so that a template is validated once per checkout
 * rather than once per test process (seconds for a small deck, over a minute for the largest corpus decks, and
 * integration test files each run in a process of their own). The folder's name holds the validator package's
 * version and a hash of validator.ts, so an upgrade of either starts afresh. It lives in node_modules/.cache:
 * ignored by git, and gone with node_modules.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const nodeModules = join(here, '..', '..', '..', 'node_modules');

function cacheFolder(): string {
  const validatorVersion = (
    JSON.parse(readFileSync(join(nodeModules, '@ooxml-tools', 'validate', 'package.json'), 'utf8')) as {
      version: string;
    }
  ).version;
  const checker = createHash('sha256')
    .update(readFileSync(join(here, 'validator.ts')))
    .digest('hex')
    .slice(0, 16);
  return join(nodeModules, '.cache', 'deckforge-validator', `${validatorVersion}-${checker}`);
}

let folder: string | undefined;
const fileOf = (sha256: string): string => join((folder ??= cacheFolder()), `${sha256}.json`);

/** The results stored for the template with this SHA-256, or undefined when there are none. */
export function readCachedResults<T>(sha256: string): T[] | undefined {
  try {
    return JSON.parse(readFileSync(fileOf(sha256), 'utf8')) as T[];
  } catch {
    return undefined;
  }
}

/** Stores a template's results; written whole and renamed into place, so concurrent readers never see half. */
export function writeCachedResults<T>(sha256: string, results: readonly T[]): void {
  const file = fileOf(sha256);
  mkdirSync(dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, JSON.stringify(results));
  renameSync(partial, file);
}
