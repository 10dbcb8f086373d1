/**
 * An uploaded template that is not a .pptx is answered with a 400 that names the payload field and the file,
 * over a real socket, for a synchronous request and for a job (which ends FAILED with the same message).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../support/servers/build-once.js';
import { bearer, startServer, type RunningServer } from '../support/servers/http-harness.js';
import { REPO_ROOT } from '../support/servers/http-harness-paths.js';
import { pollUntil, submitJob } from '../support/http/jobs-polling.js';

const SAMPLE = new Uint8Array(readFileSync(join(REPO_ROOT, 'examples', 'sample-template.pptx')));
const NOTES = new TextEncoder().encode('Meeting notes, saved as text by mistake.');

function form(presentation: Record<string, unknown>): FormData {
  const body = new FormData();
  body.append('files', new Blob([SAMPLE]), 'deck.pptx');
  body.append('files', new Blob([NOTES]), 'notes.txt');
  body.append('jsonData', JSON.stringify({ presentation }));
  return body;
}

let server: RunningServer;
let token: string;
beforeAll(async () => {
  await ensureBuilt();
  server = await startServer();
  token = (await server.signUp()).token;
}, 300_000);
afterAll(async () => server.close());

describe('a template upload that is not a .pptx', () => {
  it('gets a 400 naming presentation.template and the file', async () => {
    const response = await fetch(`${server.base}/v1.0/generator/create`, {
      method: 'POST',
      headers: bearer(token),
      body: form({ template: 'notes.txt', slides: [{ slide_index: 0 }] }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { details: string }).details).toBe(
      'presentation.template: template file "notes.txt": not a .pptx file (not a zip archive)',
    );
  });

  it('fails a job with a message naming the template_list entry and the file', async () => {
    const jobId = await submitJob(
      server.base,
      token,
      form({
        template_list: [
          { template_id: 'main', template: 'deck.pptx' },
          { template_id: 'extra', template: 'notes.txt' },
        ],
        slides: [
          { slide_index: 0, template_id: 'main' },
          { slide_index: 0, template_id: 'extra' },
        ],
      }),
    );
    const { last } = await pollUntil(server.base, token, jobId, ['SUCCEEDED', 'FAILED']);
    expect([last.status, last.error_message]).toEqual([
      'FAILED',
      'presentation.template_list[1]: template file "notes.txt": not a .pptx file (not a zip archive)',
    ]);
  });
});
