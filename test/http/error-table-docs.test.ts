/**
 * docs/http-api.md's error table against the server: a bad or expired download link answers 403, and
 * the table lists that answer with the body the server sends and what the client should do about it.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/servers/http-harness.js';

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
