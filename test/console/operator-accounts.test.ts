/**
 * The operator's `deckforge accounts disable|enable|delete` (the built CLI in a child process, on the data
 * directory of a running server): a disabled account's token is refused on its next request and its console
 * session ends; a deleted account's jobs and their files are gone, and so is everything else of it; other
 * accounts are untouched.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../support/servers/build-once.js';
import { bearer, cliEnv, startServer, type RunningServer } from '../support/servers/http-harness.js';
import { CLI_PATH, templateBytes } from '../support/servers/http-harness-paths.js';
import { titleDeck, uploadForm } from '../support/http/payloads.js';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import { ConsoleVisitor } from '../support/http/console-client.js';

const run = promisify(execFile);
let server: RunningServer;

beforeAll(async () => {
  await ensureBuilt();
  server = await startServer({ overrides: { workers: 1 } });
});
afterAll(async () => {
  await server?.close();
});

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI_PATH, 'accounts', ...args], {
      env: cliEnv(server.dataDir),
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** Submits a one-slide job and waits for it; returns its id and its result's download URL. */
async function finishedJob(token: string): Promise<{ jobId: string; fileUrl: string }> {
  const submitted = await fetch(`${server.base}/v2.0/generator/create-async`, {
    method: 'POST',
    headers: bearer(token),
    body: uploadForm(titleDeck(1)),
  });
  expect(submitted.status).toBe(202);
  const { job_id: jobId } = (await submitted.json()) as { job_id: string };
  const deadline = Date.now() + 30_000;
  for (;;) {
    const status = (await (
      await fetch(`${server.base}/v2.0/jobs/${jobId}/status`, { headers: bearer(token) })
    ).json()) as { status: string; file_url: string | null };
    if (status.status === 'SUCCEEDED' && status.file_url) return { jobId, fileUrl: status.file_url };
    if (status.status === 'FAILED' || Date.now() > deadline)
      throw new Error(`job ${jobId}: ${status.status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const usage = (token: string): Promise<Response> =>
  fetch(`${server.base}/v1.0/usage`, { headers: bearer(token) });

describe('deckforge accounts disable, enable and delete', () => {
  it("refuses a disabled account's token at once, ends its session, and lets enable undo it", async () => {
    const owner = await server.signUp();
    const visitor = new ConsoleVisitor(server.base);
    expect((await visitor.signIn(owner.email, owner.password)).status).toBe(200);

    const disabled = await cli('disable', '--email', owner.email);
    expect(disabled.code).toBe(0);
    expect(disabled.stdout).toContain(`${owner.email} is disabled`);

    const refused = await usage(owner.token);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { detail: string }).detail).toMatch(/disabled/);
    expect((await visitor.open()).signedIn).toBe(false);
    const signIn = await new ConsoleVisitor(server.base).signIn(owner.email, owner.password);
    expect(signIn.status).toBe(403);
    expect((signIn.body as { detail: string }).detail).toMatch(/disabled/);
    const token = await fetch(`${server.base}/v1.0/token/create`, {
      method: 'POST',
      body: new URLSearchParams({ username: owner.email, password: owner.password, key: owner.key }),
    });
    expect(token.status).toBe(403);

    expect((await cli('list')).stdout).toMatch(new RegExp(`${owner.email}\\t.*\\tdisabled`));
    expect((await cli('enable', '--email', owner.email)).code).toBe(0);
    expect((await usage(owner.token)).status).toBe(200);
  });

  it('deletes an account with its jobs and files only with --yes, leaving other accounts alone', async () => {
    const owner = await server.signUp();
    const other = await server.signUp();
    const [mine, theirs] = await Promise.all([finishedJob(owner.token), finishedJob(other.token)]);
    const download = await fetch(mine.fileUrl);
    expect(download.status).toBe(200);
    await expectValidPptx(new Uint8Array(await download.arrayBuffer()), templateBytes());
    const jobFolder = join(server.dataDir, 'blobs', 'jobs', mine.jobId);
    expect(existsSync(jobFolder)).toBe(true);

    const unconfirmed = await cli('delete', '--email', owner.email);
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr).toContain('add --yes');
    expect((await usage(owner.token)).status).toBe(200);

    const deleted = await cli('delete', '--email', owner.email, '--yes', '--json');
    expect(deleted.code).toBe(0);
    expect(JSON.parse(deleted.stdout)).toEqual({ email: owner.email, deletedJobs: 1 });

    expect(existsSync(jobFolder)).toBe(false);
    expect((await fetch(mine.fileUrl)).status).toBe(404);
    expect((await usage(owner.token)).status).toBe(401);
    const listed = JSON.parse((await cli('list', '--json')).stdout) as { email: string }[];
    expect(listed.map((a) => a.email)).not.toContain(owner.email);
    expect(listed.map((a) => a.email)).toContain(other.email);
    // The other account's job and result are still there.
    expect((await fetch(theirs.fileUrl)).status).toBe(200);
    expect((await usage(other.token)).status).toBe(200);
    // The address is free again: an operator can make it anew.
    expect((await cli('create', '--email', owner.email)).code).toBe(0);
  });
});
