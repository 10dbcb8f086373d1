/**
 * docs/http-api.md's error tables against the server: a bad or expired download link answers 403, and the
 * "Errors" table lists that answer with the body the server sends and what the client should do about it; the
 * "Error codes" table lists every code of the catalogue (src/http/errors/error-catalogue.ts) with its status and shape,
 * and no other; and real answers over a socket carry their code in X-Deckforge-Error-Code.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE } from '../../src/http/errors/error-catalogue.js';
import { bearer, startServer, type RunningServer } from '../support/servers/http-harness.js';

const PAGE = readFileSync(new URL('../../docs/http-api.md', import.meta.url), 'utf8');
let server: RunningServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server.close());

/** The row of the "Errors" table for `status`: its body (the JSON in backticks) and its "when" text. */
function documentedRow(status: number): { body: Record<string, unknown>; when: string } | null {
  const line = PAGE.split('\n').find((l) => l.startsWith(`| ${status} |`));
  if (!line) return null;
  const [, body = '', when = ''] = line.split(' | ');
  const json = /`(\{.*\})`/.exec(body)?.[1] ?? '{}';
  return { body: JSON.parse(json) as Record<string, unknown>, when };
}

describe('docs/http-api.md, Errors', () => {
  it('lists the 403 of a bad download link with the body sent and the way to a fresh link', async () => {
    const response = await fetch(
      `${server.base}/v2.0/files/jobs/no-such-job/deck.pptx?expires=1&signature=x`,
    );
    expect(response.status).toBe(403);
    const sent = (await response.json()) as Record<string, unknown>;
    expect(sent.detail).toMatch(/job status endpoint for a fresh link/);

    const row = documentedRow(403);
    expect(row).not.toBeNull();
    expect(row?.body).toEqual({ ...sent, detail: '…' });
    expect(row?.when).toMatch(/expired/);
    expect(row?.when).toContain('GET /v2.0/jobs/{jobId}/status');
  });
});

describe('docs/http-api.md, Error codes', () => {
  /** The rows of the "Error codes" table: code, status and shape. */
  function documentedCodes(): Map<string, { status: number; shape: string }> {
    const section = PAGE.split('### Error codes')[1]?.split('\n#')[0] ?? '';
    const rows = new Map<string, { status: number; shape: string }>();
    for (const line of section.split('\n')) {
      const [, code, status, shape] = /^\| `(DECKFORGE_\w+)` \| (\d+) \| ([ABC]) \|/.exec(line) ?? [];
      if (code) rows.set(code, { status: Number(status), shape: shape ?? '' });
    }
    return rows;
  }

  it('lists every code of the catalogue with its status and shape, and no code the catalogue lacks', () => {
    const documented = documentedCodes();
    const catalogue = new Map(
      Object.entries(ERROR_CATALOGUE).map(([code, entry]) => [
        code,
        { status: entry.status, shape: entry.shape },
      ]),
    );
    expect(documented.size).toBeGreaterThan(30);
    expect(Object.fromEntries(documented)).toEqual(Object.fromEntries(catalogue));
  });

  it('answers each refusal with its code in X-Deckforge-Error-Code, beside the body of its shape', async () => {
    const { token } = await server.signUp();
    const codeOf = (response: Response): string | null => response.headers.get('x-deckforge-error-code');

    const noToken = await fetch(`${server.base}/v1.0/usage`);
    expect([noToken.status, codeOf(noToken)]).toEqual([401, 'DECKFORGE_UNAUTHORIZED']);

    const form = new FormData();
    form.append('jsonData', JSON.stringify({ presentation: { slides: [{ slide_index: 'first' }] } }));
    const invalid = await fetch(`${server.base}/v1.0/generator/create`, {
      method: 'POST',
      headers: bearer(token),
      body: form,
    });
    expect([invalid.status, codeOf(invalid)]).toEqual([400, 'DECKFORGE_INVALID_PAYLOAD']);
    expect(await invalid.json()).toMatchObject({ statusCode: 400, message: 'Invalid input parameters' });

    const unknownJob = await fetch(`${server.base}/v2.0/jobs/00000000-0000-4000-8000-000000000000/status`, {
      headers: bearer(token),
    });
    expect([unknownJob.status, codeOf(unknownJob)]).toEqual([404, 'DECKFORGE_NOT_FOUND']);

    const unknownRoute = await fetch(`${server.base}/v1.0/no-such-endpoint`);
    expect([unknownRoute.status, codeOf(unknownRoute)]).toEqual([404, 'DECKFORGE_NOT_FOUND']);

    const badLink = await fetch(`${server.base}/v2.0/files/jobs/no-such-job/deck.pptx?expires=1&signature=x`);
    expect([badLink.status, codeOf(badLink)]).toEqual([403, 'DECKFORGE_LINK_INVALID']);

    // The generator reads a JSON body itself: what does not parse is a payload error, naming where.
    const badPayload = await fetch(`${server.base}/v1.0/generator/create`, {
      method: 'POST',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      body: '{"jsonData": ',
    });
    expect([badPayload.status, codeOf(badPayload)]).toEqual([400, 'DECKFORGE_INVALID_PAYLOAD']);
    // The token endpoint answers in its own shape, with the same header.
    const tokenForm = new FormData();
    tokenForm.append('username', 'nobody@example.test');
    const missing = await fetch(`${server.base}/v1.0/token/create`, { method: 'POST', body: tokenForm });
    expect([missing.status, codeOf(missing)]).toEqual([400, 'DECKFORGE_MISSING_CREDENTIALS']);
    expect(await missing.json()).toMatchObject({ isSuccess: false });
  });
});
