/**
 * The 500 rows of the interface's error table. A real fault: the runtime behind a running server is shut down
 * (database closed), so every use case fails the way a lost database would.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  startServer,
  type Credentials,
  type RunningServer,
} from '../support/servers/http-harness.js';
import { titleDeck, uploadForm } from '../support/http/payloads.js';

let server: RunningServer;
let account: Credentials & { token: string };

beforeAll(async () => {
  server = await startServer();
  account = await server.signUp();
  await server.runtime.close();
});
afterAll(async () => server.close());

function shapeC(detail: RegExp) {
  return { statusCode: 500, title: 'Error', detail: expect.stringMatching(detail) };
}

describe('500 rows', () => {
  it('generate: shape C, "error while generating the presentation, see server logs"', async () => {
    const response = await fetch(`${server.base}/v1.0/generator/create`, {
      method: 'POST',
      body: uploadForm(titleDeck(1)),
      headers: bearer(account.token),
    });
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual(shapeC(/generating the presentation.*server logs/));
  });

  it('create-async: shape C, "error while queuing the presentation"', async () => {
    const response = await fetch(`${server.base}/v2.0/generator/create-async`, {
      method: 'POST',
      body: uploadForm(titleDeck(1)),
      headers: bearer(account.token),
    });
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual(shapeC(/queuing the presentation/));
  });

  it('job status: shape C, "error while retrieving the job status"', async () => {
    const response = await fetch(`${server.base}/v2.0/jobs/some-job/status`, {
      headers: bearer(account.token),
    });
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual(shapeC(/retrieving the job status/));
  });

  it('usage: shape C with the generation text, as the interface’s sample shows', async () => {
    for (const path of ['/v1.0/usage', '/v1/usage']) {
      const response = await fetch(`${server.base}${path}`, { headers: bearer(account.token) });
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual(shapeC(/generating the presentation/));
    }
  });

  it('token create: isSuccess false, Message "Internal Server Error", Result {}', async () => {
    const response = await fetch(`${server.base}/v1.0/token/create`, {
      method: 'POST',
      body: new URLSearchParams({ username: account.email, password: account.password, key: account.key }),
    });
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ isSuccess: false, Message: 'Internal Server Error', Result: {} });
  });

  it('logs the cause of each 500 with its request id', () => {
    const failures = server.logs
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((l) => l.level === 50);
    expect(failures.length).toBeGreaterThanOrEqual(5);
    for (const line of failures) expect(line.reqId).toEqual(expect.any(String));
  });
});
