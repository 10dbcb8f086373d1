/**
 * A payload without resultFileName: the download is "<template>-generated.pptx", so docs/http-api.md's
 * `curl -OJ`, run as written beside the template, writes the deck instead of failing on the template's name;
 * the job's download and `deckforge generate` without -o use the same name. The template is left as it was.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import { ensureBuilt } from '../support/servers/build-once.js';
import { startServer, type RunningServer } from '../support/servers/http-harness.js';
import { CLI_PATH, REPO_ROOT } from '../support/servers/http-harness-paths.js';
import { pollUntil, submitJob } from '../support/http/jobs-polling.js';

const run = promisify(execFile);
const SAMPLE_PATH = join(REPO_ROOT, 'examples', 'sample-template.pptx');
const SAMPLE = new Uint8Array(readFileSync(SAMPLE_PATH));
const PAYLOAD = JSON.stringify({
  presentation: {
    template: 'sample-template.pptx',
    slides: [{ slide_index: 1, shapes: [{ name: 'Title', content: 'No name given' }] }],
  },
});

let server: RunningServer;
let token: string;
let dir: string;
beforeAll(async () => {
  await ensureBuilt();
  server = await startServer();
  token = (await server.signUp()).token;
  dir = mkdtempSync(join(tmpdir(), 'deckforge-default-name-'));
  copyFileSync(SAMPLE_PATH, join(dir, 'sample-template.pptx'));
  writeFileSync(join(dir, 'payload.json'), PAYLOAD);
}, 300_000);
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the default file name', () => {
  it("docs/http-api.md's curl -OJ, run beside the template, writes sample-template-generated.pptx and leaves the template alone", async () => {
    const page = readFileSync(join(REPO_ROOT, 'docs', 'http-api.md'), 'utf8');
    const section = page.slice(page.indexOf('### Synchronous'));
    const block = /```sh\n([\s\S]*?)```/.exec(section)![1]!;
    expect(block).toContain('-F files=@"$SAMPLE" -F jsonData=@payload.json -OJ');
    const docsDir = mkdtempSync(join(tmpdir(), 'deckforge-default-name-docs-'));
    try {
      copyFileSync(SAMPLE_PATH, join(docsDir, 'sample-template.pptx'));
      writeFileSync(join(docsDir, 'payload.json'), PAYLOAD);
      // As the reader runs it, with B, TOKEN and SAMPLE set; curl exits 23 when -OJ cannot write its file.
      await run('bash', ['-c', `set -euo pipefail\n${block}`], {
        cwd: docsDir,
        env: { ...process.env, B: server.base, TOKEN: token, SAMPLE: 'sample-template.pptx' },
        timeout: 60_000,
      });
      expect(new Uint8Array(readFileSync(join(docsDir, 'sample-template.pptx')))).toEqual(SAMPLE);
      await expectValidPptx(
        new Uint8Array(readFileSync(join(docsDir, 'sample-template-generated.pptx'))),
        SAMPLE,
      );
    } finally {
      rmSync(docsDir, { recursive: true, force: true });
    }
  });

  it("a job's download is named the same way", async () => {
    const form = new FormData();
    form.append('files', new Blob([SAMPLE]), 'sample-template.pptx');
    form.append('jsonData', PAYLOAD);
    const jobId = await submitJob(server.base, token, form);
    const { last } = await pollUntil(server.base, token, jobId, ['SUCCEEDED', 'FAILED']);
    expect(last.status).toBe('SUCCEEDED');
    // The pre-signed link takes no Authorization header.
    const download = await fetch(last.file_url!);
    expect(download.headers.get('content-disposition')).toBe(
      'attachment; filename="sample-template-generated.pptx"',
    );
    await expectValidPptx(new Uint8Array(await download.arrayBuffer()), SAMPLE);
  });

  it('deckforge generate without -o writes sample-template-generated.pptx', async () => {
    const cliDir = mkdtempSync(join(tmpdir(), 'deckforge-default-name-cli-'));
    try {
      copyFileSync(SAMPLE_PATH, join(cliDir, 'sample-template.pptx'));
      writeFileSync(join(cliDir, 'payload.json'), PAYLOAD);
      await run(process.execPath, [CLI_PATH, 'generate', 'sample-template.pptx', 'payload.json'], {
        cwd: cliDir,
        timeout: 60_000,
      });
      expect(new Uint8Array(readFileSync(join(cliDir, 'sample-template.pptx')))).toEqual(SAMPLE);
      const deck = new Uint8Array(readFileSync(join(cliDir, 'sample-template-generated.pptx')));
      await expectValidPptx(deck, SAMPLE);
    } finally {
      rmSync(cliDir, { recursive: true, force: true });
    }
  });
});
