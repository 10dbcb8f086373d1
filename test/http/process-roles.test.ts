/**
 * The process roles, as built: `deckforge serve --no-worker` answers the API and runs no job; a `deckforge
 * worker` process on the same stores runs what it accepted. (On one machine: the data directory's queue; on
 * several, the same two commands with the shared stores configured.)
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import { cliEnv, createAccountIn, issueToken, tempDataDir } from '../support/servers/http-harness.js';
import { CLI_PATH, REPO_ROOT, templateBytes } from '../support/servers/http-harness-paths.js';
import { configWith } from '../../src/config/index.js';
import { pollUntil, readStatus, submitJob } from '../support/http/jobs-polling.js';
import { titleDeck, uploadForm } from '../support/http/payloads.js';
import { startServe, type ServeProcess } from '../support/servers/serve-process.js';

const dataDir = tempDataDir();
let api: ServeProcess | null = null;
afterAll(async () => {
  await api?.kill();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('deckforge serve --no-worker with deckforge worker', () => {
  it('the API node queues the job, and only the worker process runs it', async () => {
    api = await startServe(dataDir, { DECKFORGE_WORKERS: '1' }, ['--no-worker']);
    expect(api.output()).toMatch(/API only: jobs run in `deckforge worker` processes/);
    const account = await createAccountIn(configWith({ dataDir }), 'Enterprise');
    const token = await issueToken(api.base, account);
    const jobId = await submitJob(api.base, token, uploadForm(titleDeck(2)));
    // An embedded consumer would have claimed it within its 500 ms poll; this node has none.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await readStatus(api.base, token, jobId)).status).toBe('QUEUED');

    const worker = spawn(process.execPath, [CLI_PATH, 'worker'], {
      cwd: REPO_ROOT,
      env: { ...cliEnv(dataDir), DECKFORGE_WORKERS: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    worker.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    worker.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => worker.once('exit', resolve));
    try {
      const { last } = await pollUntil(api.base, token, jobId, ['SUCCEEDED', 'FAILED'], {
        timeoutMs: 60_000,
      });
      expect(last.status, output).toBe('SUCCEEDED');
      expect(output).toMatch(/worker is running 1 generation thread/);
      const download = await fetch(last.file_url ?? '');
      expect(download.status).toBe(200);
      await expectValidPptx(new Uint8Array(await download.arrayBuffer()), templateBytes());
    } finally {
      worker.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  });
});
