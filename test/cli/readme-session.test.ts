/**
 * The README's curl session, run as written: the `sh` block under "A first session with curl" goes to bash in the
 * clone's root against a running server on the same data directory, with PORT set to the test server's free port
 * (the session reads it). The decks it writes must be sound and hold the text; the warning header the README
 * shows for a payload with mistakes must be what the server sends.
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
    // As written: the server's address comes from PORT, which the test's server (on a free port) sets.
    expect(session).toContain('B=http://127.0.0.1:${PORT:-8080}\n');
    const script = `set -euo pipefail\n${session}\necho "SCRATCH=$PWD"\n`;
    const { stdout } = await run('bash', ['-c', script], {
      cwd: REPO_ROOT,
      env: { ...sessionEnv(), PORT: new URL(server.base).port },
      timeout: 180_000,
    });
    const scratch = /SCRATCH=(\S+)/.exec(stdout)?.[1] ?? '';
    // Step 3 shows the warning headers of the synchronous deck: none for the README's payload.
    expect(stdout).toMatch(/^x-generation-warnings: 0\r?$/im);
    expect(stdout).not.toMatch(/^x-generation-unmatched:/im);
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

  it('shows the X-Generation-Unmatched line the server sends for its payload with a misspelt shape and key', async () => {
    const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
    const shown = /```text\n(X-Generation-Unmatched: .*)\n```/.exec(readme)?.[1];
    const payload = /cat > payload\.json <<'EOF'\n([\s\S]*?)\nEOF/.exec(readme)?.[1];
    if (!shown || !payload)
      throw new Error('README: no X-Generation-Unmatched example, or no payload heredoc');
    // The README's payload with the two mistakes its example names.
    const mistaken = payload
      .replace('{"name": "Title", "content": "Highlights"}', '{"name": "Titel", "content": "Highlights"}')
      .replace('{"name": "Body", "content":', '{"name": "Body", "contents":');
    expect(mistaken).not.toBe(payload);
    const form = new FormData();
    form.append('files', new Blob([SAMPLE]), 'sample-template.pptx');
    form.append('jsonData', mistaken);
    const { token } = await server.signUp();
    const response = await fetch(`${server.base}/v1.0/generator/create`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    expect(response.status).toBe(200);
    await expectValidPptx(new Uint8Array(await response.arrayBuffer()), SAMPLE);
    expect(`X-Generation-Unmatched: ${response.headers.get('x-generation-unmatched')}`).toBe(shown);
  });
});

function sessionEnv(): NodeJS.ProcessEnv {
  return { ...process.env, DECKFORGE_DATA_DIR: server.dataDir, DECKFORGE_LOG_LEVEL: 'silent' };
}
