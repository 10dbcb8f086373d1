/**
 * Jobs survive a restart (docs/operations.md "Jobs, workers and restarts"): `deckforge serve` is killed with
 * SIGKILL while one job is PROCESSING and another QUEUED, started again on the same data directory, and both jobs
 * end (never stuck).
 */
import { rmSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import { configWith } from '../../src/config/index.js';
import { createAccountIn, issueToken, tempDataDir } from '../support/servers/http-harness.js';
import { templateBytes } from '../support/servers/http-harness-paths.js';
import { pollUntil, readStatus, submitJob } from '../support/http/jobs-polling.js';
import { titleDeck, uploadForm } from '../support/http/payloads.js';
import { startServe, type ServeProcess } from '../support/servers/serve-process.js';

const dataDir = tempDataDir();
const processes: ServeProcess[] = [];

// The running jobs' template is fetched from here. Until the first process is killed the answer never comes, so
// those jobs stay PROCESSING (a job is PROCESSING while it fetches) however fast or slow this machine is; the
// second process is given the template at once.
let stalling = true;
const stalled: ServerResponse[] = [];
const templateServer = createServer((_request, response) => {
  if (stalling) stalled.push(response.writeHead(200, { 'content-type': 'application/octet-stream' }));
  else response.writeHead(200).end(templateBytes());
});
const templateUrl = new Promise<string>((resolve) =>
  templateServer.listen(0, '127.0.0.1', () =>
    resolve(`http://127.0.0.1:${(templateServer.address() as AddressInfo).port}/deck.pptx`),
  ),
);

afterAll(async () => {
  for (const serve of processes) await serve.kill();
  for (const response of stalled) response.destroy();
  await new Promise((resolve) => templateServer.close(resolve));
  rmSync(dataDir, { recursive: true, force: true });
});

describe('restart recovery', () => {
  it('finishes a job that was PROCESSING and one that was QUEUED when the process was killed', async () => {
    const account = await createAccountIn(configWith({ dataDir }), 'Enterprise');
    const env = { DECKFORGE_WORKERS: '1', DECKFORGE_ALLOW_PRIVATE_URLS: 'true' };
    const first = await startServe(dataDir, env);
    processes.push(first);
    const token = await issueToken(first.base, account);

    const fetching = titleDeck(3, { resultFileName: 'Survivor', template: await templateUrl });
    const running = await submitJob(first.base, token, uploadForm(fetching, []));
    // A second fetching job: one account may hold every claim but one (a job is claimed while it fetches, before a
    // thread is free), so with these two claimed the job after them is the one that stays QUEUED.
    await submitJob(
      first.base,
      token,
      uploadForm(titleDeck(3, { resultFileName: 'Ahead', template: await templateUrl }), []),
    );
    const waiting = await submitJob(
      first.base,
      token,
      uploadForm(titleDeck(2, { resultFileName: 'Patient' })),
    );
    await pollUntil(first.base, token, running, ['PROCESSING']);
    expect((await readStatus(first.base, token, waiting)).status).toBe('QUEUED');
    await first.kill();
    stalling = false;

    const second = await startServe(dataDir, env);
    processes.push(second);
    // The token was stored (hashed) in the database, so it still verifies after the restart.
    const afterRunning = await pollUntil(second.base, token, running, ['SUCCEEDED', 'FAILED'], {
      timeoutMs: 180_000,
      intervalMs: 250,
    });
    if (afterRunning.last.status === 'FAILED') {
      // Marked FAILED with a reason a user can read, never left PROCESSING.
      expect(afterRunning.last.error_message?.length ?? 0).toBeGreaterThan(10);
    } else {
      const download = await fetch(afterRunning.last.file_url ?? '');
      expect(download.status).toBe(200);
      await expectValidPptx(new Uint8Array(await download.arrayBuffer()), templateBytes());
    }
    const afterWaiting = await pollUntil(second.base, token, waiting, ['SUCCEEDED', 'FAILED'], {
      timeoutMs: 180_000,
      intervalMs: 250,
    });
    expect(afterWaiting.last.status).toBe('SUCCEEDED');
    const download = await fetch(afterWaiting.last.file_url ?? '');
    expect(download.headers.get('content-disposition')).toBe('attachment; filename="Patient.pptx"');
    await expectValidPptx(new Uint8Array(await download.arrayBuffer()), templateBytes());
  }, 300_000);
});
