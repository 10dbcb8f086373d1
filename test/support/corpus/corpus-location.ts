/**
 * Where the compatibility corpus is looked for: $DECKFORGE_CORPUS when set, else ../shared/corpus beside the
 * repository. Nowhere else: a clone must not pass or fail by what happens to sit at some absolute path.
 * (Kept apart from corpus.ts, which imports vitest's test API, so that vitest's globalSetup can use it too.)
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

export const CORPUS_DIR = process.env.DECKFORGE_CORPUS
  ? resolve(process.env.DECKFORGE_CORPUS)
  : join(REPO_ROOT, '..', 'shared', 'corpus');

/** A folder without manifest.json counts as no corpus. */
export const CORPUS_PRESENT = existsSync(join(CORPUS_DIR, 'manifest.json'));
