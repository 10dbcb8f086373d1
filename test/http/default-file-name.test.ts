/**
 * A payload without resultFileName: the download is "<template>-generated.pptx", so `curl -OJ` run beside the
 * template (docs/http-api.md) writes the deck instead of failing on the template's name; the job's download
 * and `deckforge generate` without -o use the same name. The template beside them is left as it was.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectValidPptx } from '../support/expect-valid-pptx.js';
import { ensureBuilt } from './build-once.js';
import { startServer, type RunningServer } from './http-harness.js';
import { CLI_PATH, REPO_ROOT } from './http-harness-paths.js';
import { pollUntil, submitJob } from './jobs-polling.js';

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
  it('curl -OJ beside the template writes sample-template-generated.pptx and leaves the template alone', async () => {
    await run(
      'curl',
      [
        ...['-sS', '--fail', '-X', 'POST', `${server.base}/v1.0/generator/create`],
        ...['-H', `Authorization: Bearer ${token}`, '-F', 'files=@sample-template.pptx'],
        ...['-F', 'jsonData=@payload.json', '-OJ'],
      ],
      { cwd: dir, timeout: 60_000 },
    );
    expect(new Uint8Array(readFileSync(join(dir, 'sample-template.pptx')))).toEqual(SAMPLE);
    await expectValidPptx(new Uint8Array(readFileSync(join(dir, 'sample-template-generated.pptx'))), SAMPLE);
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
