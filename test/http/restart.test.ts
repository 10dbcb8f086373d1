/**
 * Jobs survive a restart (docs/operations.md "Jobs, workers and restarts"): `deckforge serve` is killed with
 * SIGKILL while one job is PROCESSING and another QUEUED, started again on the same data directory, and both jobs
 * end (never stuck).
 */
import { rmSync } from 'node:fs';
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

afterAll(async () => {
  for (const serve of processes) await serve.kill();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('restart recovery', () => {
  it('finishes a job that was PROCESSING and one that was QUEUED when the process was killed', async () => {
    const account = await createAccountIn(configWith({ dataDir }), 'Enterprise');
    const first = await startServe(dataDir, { DECKFORGE_WORKERS: '1' });
    processes.push(first);
    const token = await issueToken(first.base, account);

    const running = await submitJob(
      first.base,
      token,
      // Large enough to be still running when it is seen PROCESSING: 600 slides have been made between two polls.
      uploadForm(titleDeck(3000, { resultFileName: 'Survivor' })),
    );
    // Taken at once too (a job is claimed while it fetches, before a thread is free); one account may hold every
    // claim but one, so the job after it is the one that stays QUEUED.
    await submitJob(first.base, token, uploadForm(titleDeck(2, { resultFileName: 'Ahead' })));
    const waiting = await submitJob(
      first.base,
      token,
      uploadForm(titleDeck(2, { resultFileName: 'Patient' })),
    );
    await pollUntil(first.base, token, running, ['PROCESSING'], { intervalMs: 20 });
    expect((await readStatus(first.base, token, waiting)).status).toBe('QUEUED');
    await first.kill();

    const second = await startServe(dataDir, { DECKFORGE_WORKERS: '1' });
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
