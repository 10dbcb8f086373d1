/**
 * The README's curl session, run as written: the `sh` block under "A first session with curl" goes to bash in the
 * clone's root against a running server on the same data directory. The one change is the server's address
 * (`B=…`), since the test's server listens on a free port. The decks it writes must be sound and hold the text.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/servers/http-harness.js';
import { ensureBuilt } from '../support/servers/build-once.js';
import { REPO_ROOT } from '../support/servers/http-harness-paths.js';
import { slideTexts } from '../support/readers/pptx-reading.js';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';

const run = promisify(execFile);
const SAMPLE = new Uint8Array(readFileSync(join(REPO_ROOT, 'examples', 'sample-template.pptx')));

function readmeSession(): string {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## A first session with curl'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error('README: no sh block under "A first session with curl"');
  return block;
}

/** The README's body text, paragraph by paragraph, with its outline level: each line where a reader expects it. */
function bodyLevels(deck: Uint8Array): [string, number][] {
  const slide = strFromU8(unzipSync(deck)['ppt/slides/slide2.xml']!);
  const body = /name="Body"[\s\S]*?<\/p:txBody>/.exec(slide)![0];
  return [...body.matchAll(/<a:p>([\s\S]*?)<\/a:p>/g)].map(([, p]) => [
    [...p!.matchAll(/<a:t>([^<]*)<\/a:t>/g)].map((t) => t[1]).join(''),
    Number(/<a:pPr [^>]*lvl="(\d)"/.exec(p!)?.[1] ?? 0),
  ]);
}

let server: RunningServer;
beforeAll(async () => {
  await ensureBuilt();
  server = await startServer();
}, 300_000);
afterAll(async () => server.close());

describe("the README's first session", () => {
  it('works when pasted: a token, a synchronous deck, a job polled to the end and downloaded, usage', async () => {
    const session = readmeSession();
    expect(session).toContain('B=http://127.0.0.1:8080\n');
    const script = `set -euo pipefail\n${session.replace('B=http://127.0.0.1:8080\n', `B=${server.base}\n`)}\necho "SCRATCH=$PWD"\n`;
    const { stdout } = await run('bash', ['-c', script], {
      cwd: REPO_ROOT,
      env: { ...process.env, DECKFORGE_DATA_DIR: server.dataDir, DECKFORGE_LOG_LEVEL: 'silent' },
      timeout: 180_000,
    });
    const scratch = /SCRATCH=(\S+)/.exec(stdout)?.[1] ?? '';
    expect(JSON.parse(stdout.slice(stdout.indexOf('{'), stdout.lastIndexOf('}') + 1))).toMatchObject({
      usedSlideCount: 6,
      plan: 'Starter',
    });
    for (const file of ['Quarterly review.pptx', 'from-job.pptx']) {
      const deck = new Uint8Array(readFileSync(join(scratch, file)));
      await expectValidPptx(deck, SAMPLE);
      const texts = slideTexts(deck);
      expect(texts).toHaveLength(3);
      expect(texts[0]).toContain('Acme · Q3 2026');
      expect(texts[1]).toContain('Revenue up 12%');
      expect(bodyLevels(deck)).toEqual([
        ['Revenue up 12%', 0],
        ['in every region', 1],
        ['Two new markets', 0],
      ]);
    }
  });
});
