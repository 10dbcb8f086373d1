/**
 * A DELETE of a stored template racing an upload of the same bytes, over real HTTP against the local-disk blob
 * store (docs/http-api.md, "Stored templates"; docs/operations.md, "The data directory"): never a 500, whichever
 * lands first; what the account lists afterwards downloads whole; no bytes stay without a template; and no
 * temporary file is left in the data directory.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startServer, type RunningServer } from '../support/servers/http-harness.js';
import { templateBytes } from '../support/servers/http-harness-paths.js';

const LAYOUTS = templateBytes();
const ROUNDS = 40;

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({
    plans: [{ name: 'Free', allowedSlideCount: 1000, requestsPerMinute: 60_000 }],
  });
});
afterAll(async () => server?.close());

interface Listed {
  id: string;
  name: string;
  sha256: string;
}

function upload(token: string, name: string): Promise<Response> {
  const form = new FormData();
  form.append('file', new Blob([LAYOUTS]), name);
  return fetch(`${server.base}/v1.0/templates`, { method: 'POST', body: form, headers: bearer(token) });
}

function api(token: string, path: string, method = 'GET'): Promise<Response> {
  return fetch(`${server.base}/v1.0/templates${path}`, { method, headers: bearer(token) });
}

async function listed(token: string): Promise<Listed[]> {
  const response = await api(token, '');
  expect(response.status).toBe(200);
  return ((await response.json()) as { templates: Listed[] }).templates;
}

/** Every file under the data directory's blob folder, relative to it, with `/` between folders. */
function blobFiles(): string[] {
  const root = join(server.dataDir, 'blobs');
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => !entry.isDirectory())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join('/'));
}

describe('a DELETE racing an upload of the same bytes', () => {
  it(`answers neither with a 500 in ${ROUNDS} rounds, and leaves what it answered, whole`, async () => {
    const { token } = await server.signUp();
    const answers: { round: number; del: number; up: number }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      for (const template of await listed(token)) {
        expect((await api(token, `/${template.id}`, 'DELETE')).status).toBe(200);
      }
      const old = await upload(token, 'old.pptx');
      expect(old.status).toBe(201);
      const { id } = (await old.json()) as Listed;
      // Even rounds upload the same name again, odd ones another name: both put the same content-addressed key.
      // The upload leaves up to 2 ms after the DELETE, so that over the rounds each step of one meets the other.
      const deleting = api(token, `/${id}`, 'DELETE');
      if (round % 3 > 0) await new Promise((resolve) => setTimeout(resolve, round % 3));
      const [deleted, uploaded] = await Promise.all([
        deleting,
        upload(token, round % 2 === 0 ? 'old.pptx' : 'new.pptx'),
      ]);
      answers.push({ round, del: deleted.status, up: uploaded.status });
      await Promise.all([deleted.arrayBuffer(), uploaded.arrayBuffer()]);

      // What the account lists downloads whole, and the blob store keeps bytes only for what it lists.
      const left = await listed(token);
      for (const template of left) {
        const file = await api(token, `/${template.id}/file`);
        expect(file.status).toBe(200);
        expect(Buffer.compare(Buffer.from(await file.arrayBuffer()), LAYOUTS)).toBe(0);
      }
      const stored = blobFiles().filter((file) => file.startsWith('templates/'));
      expect({ round, stored: stored.length }).toEqual({ round, stored: left.length > 0 ? 1 : 0 });
    }
    expect(answers.filter(({ del, up }) => ![200, 404].includes(del) || ![200, 201].includes(up))).toEqual(
      [],
    );
    expect(blobFiles().filter((file) => !file.startsWith('templates/'))).toEqual([]);
  });
});
