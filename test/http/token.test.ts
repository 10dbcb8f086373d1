/** Endpoint 1, POST /v1.0/token/create: both body styles, the token shape, every error row, no secrets in logs. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  startServer,
  type Credentials,
  type RunningServer,
} from '../support/servers/http-harness.js';

let server: RunningServer;
let account: Credentials;

beforeAll(async () => {
  server = await startServer();
  account = await server.createAccount();
});
afterAll(async () => server.close());

function form(fields: Record<string, string>): FormData {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  return body;
}

describe('POST /v1.0/token/create', () => {
  it('issues a bearer token from multipart username, password and key', async () => {
    const response = await fetch(`${server.base}/v1.0/token/create`, {
      method: 'POST',
      body: form({ username: account.email, password: account.password, key: account.key }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await response.json()) as { Result: { Access_Token: string } };
    expect(body).toEqual({
      isSuccess: true,
      Message: null,
      Result: {
        Access_Token: expect.any(String),
        Username: account.email,
        hasSubscription: expect.any(Boolean),
      },
    });
    const usage = await fetch(`${server.base}/v1.0/usage`, { headers: bearer(body.Result.Access_Token) });
    expect(usage.status).toBe(200);
  });

  it('accepts a form-urlencoded body too', async () => {
    const response = await fetch(`${server.base}/v1.0/token/create`, {
      method: 'POST',
      body: new URLSearchParams({ username: account.email, password: account.password, key: account.key }),
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { isSuccess: boolean }).isSuccess).toBe(true);
  });

  it.each([
    ['password', { username: 'x@example.test', key: 'k' }],
    ['username', { password: 'p', key: 'k' }],
    ['key', { username: 'x@example.test', password: 'p' }],
  ])('answers 400 in the token shape when %s is missing', async (_missing, fields) => {
    const response = await fetch(`${server.base}/v1.0/token/create`, { method: 'POST', body: form(fields) });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { Message: string };
    expect(body).toEqual({ isSuccess: false, Message: expect.any(String), Result: {} });
    expect(body.Message.toLowerCase()).toMatch(/required|missing/);
  });

  it('answers 400 in the token shape for an empty body', async () => {
    const response = await fetch(`${server.base}/v1.0/token/create`, { method: 'POST' });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ isSuccess: false, Message: expect.any(String), Result: {} });
  });

  it.each([
    ['a wrong password', () => ({ ...account, password: `${account.password}x` })],
    ['a wrong key', () => ({ ...account, key: `${account.key}x` })],
    ['an unknown e-mail', () => ({ ...account, email: 'nobody@example.test' })],
  ])('answers 401 for %s, naming the e-mail/password combination', async (_case, credentials) => {
    const { email, password, key } = credentials();
    const response = await fetch(`${server.base}/v1.0/token/create`, {
      method: 'POST',
      body: form({ username: email, password, key }),
    });
    expect(response.status).toBe(401);
    const body = (await response.json()) as { Message: string };
    expect(body).toEqual({ isSuccess: false, Message: expect.any(String), Result: {} });
    expect(body.Message.toLowerCase()).toContain('password');
  });

  it('issues tokens that verify on another API node sharing the data directory', async () => {
    const response = await fetch(`${server.base}/v1.0/token/create`, {
      method: 'POST',
      body: form({ username: account.email, password: account.password, key: account.key }),
    });
    const token = ((await response.json()) as { Result: { Access_Token: string } }).Result.Access_Token;
    const other = await startServer({ dataDir: server.dataDir });
    try {
      const usage = await fetch(`${other.base}/v1/usage`, { headers: bearer(token) });
      expect(usage.status).toBe(200);
    } finally {
      await other.close();
    }
  });

  it('keeps passwords, keys and tokens out of the logs', async () => {
    const response = await fetch(`${server.base}/v1.0/token/create`, {
      method: 'POST',
      body: form({ username: account.email, password: account.password, key: account.key }),
    });
    const token = ((await response.json()) as { Result: { Access_Token: string } }).Result.Access_Token;
    await fetch(`${server.base}/v1.0/usage?token=${token}`, { headers: bearer(token) });
    const logs = server.logs.join('\n');
    expect(logs).toContain('/v1.0/token/create');
    expect(logs).not.toContain(account.password);
    expect(logs).not.toContain(account.key);
    expect(logs).not.toContain(token);
  });
});
