/**
 * vitest globalSetup: when the corpus is missing, says so in one line at the top of the run, with how many test
 * files hold corpus tests (skipped through corpus.ts's `describeCorpus` / `itCorpus`) and how to provide it; when
 * a shared store (PostgreSQL) does not answer, one more line names the variable that enables its suites.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORPUS_DIR, CORPUS_PRESENT, REPO_ROOT } from './corpus-location.js';
import { sharedStoreNotice } from '../servers/shared-store-notice.js';

const GATED = /\b(describeCorpus|itCorpus)\b/;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Set once the notice is out: each vitest project (vitest.config.ts) runs the global setup, all in one process. */
const SHOWN = Symbol.for('deckforge.test-notices-shown');

export async function setup(): Promise<void> {
  const shared = globalThis as { [SHOWN]?: boolean };
  if (shared[SHOWN]) return;
  shared[SHOWN] = true;
  const stores = await sharedStoreNotice();
  if (stores) console.log(stores);
  if (CORPUS_PRESENT) return;
  const files = ['src', 'test'].flatMap((d) => testFiles(join(REPO_ROOT, d)));
  const gated = files.filter((f) => GATED.test(readFileSync(f, 'utf8')));
  const whole = gated.filter((f) => /\bdescribeCorpus\(/.test(readFileSync(f, 'utf8')));
  console.log(
    `corpus not found at ${CORPUS_DIR}: skipping the corpus tests of ${gated.length} test files ` +
      `(whole suites in ${whole.length} of them); set DECKFORGE_CORPUS or place the corpus at ../shared/corpus`,
  );
}
