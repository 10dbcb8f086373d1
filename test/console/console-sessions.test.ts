/**
 * The console's sessions over a real socket: the anonymous session and its cookie, CSRF refusals, sign-in and
 * sign-out, the cookie's flags, and one account's cookie never reading another's data.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../http/http-harness.js';
import { ConsoleVisitor } from './console-client.js';

let server: RunningServer;
let httpsServer: RunningServer;

beforeAll(async () => {
  [server, httpsServer] = await Promise.all([
    startServer(),
    startServer({ overrides: { publicBaseUrl: 'https://decks.example.test' } }),
  ]);
});
afterAll(async () => {
  await Promise.all([server?.close(), httpsServer?.close()]);
});

describe('console sessions', () => {
  it('opens an anonymous session with an HttpOnly, SameSite=Strict cookie scoped to /console', async () => {
    const visitor = new ConsoleVisitor(server.base);
    const body = await visitor.open();
    expect(body).toEqual({
      signedIn: false,
      csrfToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      signup: { open: false, reason: 'sign-up is closed on this server' },
      mailConfigured: false,
    });
    const flags = visitor.lastSetCookie?.split('; ') ?? [];
    expect(flags[0]).toMatch(/^deckforge_console=[A-Za-z0-9_-]{43}$/);
    expect(flags).toEqual(expect.arrayContaining(['Path=/console', 'HttpOnly', 'SameSite=Strict']));
    expect(flags).not.toContain('Secure');
    // The same cookie keeps the same session and token, and is not set again.
    visitor.lastSetCookie = null;
    expect((await visitor.open()).csrfToken).toBe(body.csrfToken);
    expect(visitor.lastSetCookie).toBeNull();
  });

  it('marks the cookie Secure when the public URL is https', async () => {
    const visitor = new ConsoleVisitor(httpsServer.base);
    await visitor.open();
    expect(visitor.lastSetCookie?.split('; ')).toContain('Secure');
  });

  it("refuses a state-changing request without the CSRF token, or with another session's, with 403", async () => {
    const credentials = await server.createAccount();
    const visitor = new ConsoleVisitor(server.base);
    const other = new ConsoleVisitor(server.base);
    await Promise.all([visitor.open(), other.open()]);
    const attempts = [
      await visitor.post('/console/api/sign-in', credentials, { csrf: null }),
      await visitor.post('/console/api/sign-in', credentials, { csrf: 'x'.repeat(43) }),
      await visitor.post('/console/api/sign-in', credentials, { csrf: other.csrfToken }),
      // No cookie at all: there is no session whose token could match.
      await new ConsoleVisitor(server.base).post('/console/api/sign-in', credentials, {
        csrf: visitor.csrfToken,
      }),
    ];
    for (const answer of attempts) {
      expect(answer.status).toBe(403);
      expect(answer.body).toEqual({ statusCode: 403, message: 'Forbidden', detail: expect.any(String) });
    }
    expect((attempts[0]!.body as { detail: string }).detail).toMatch(/X-CSRF-Token/);
    // Nothing was signed in by those attempts.
    expect((await visitor.open()).signedIn).toBe(false);
  });

  it('signs in with a new session id, keeps the CSRF token, and signs out for good', async () => {
    const credentials = await server.createAccount({ plan: 'Starter' });
    const visitor = new ConsoleVisitor(server.base);
    const before = await visitor.open();
    const anonymousCookie = visitor.cookie;
    const signedIn = await visitor.signIn(credentials.email, credentials.password);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toEqual({
      account: { email: credentials.email, plan: 'Starter', emailConfirmed: true },
      csrfToken: before.csrfToken,
    });
    expect(visitor.cookie).not.toBe(anonymousCookie);
    const session = await visitor.open();
    expect(session).toMatchObject({
      signedIn: true,
      account: { email: credentials.email, plan: 'Starter', emailConfirmed: true },
    });
    // The cookie from before sign-in opens nothing now (no session fixation).
    const planted = new ConsoleVisitor(server.base);
    planted.cookie = anonymousCookie;
    expect((await planted.open()).signedIn).toBe(false);

    const signedInCookie = visitor.cookie;
    const out = await visitor.post('/console/api/sign-out');
    expect(out.status).toBe(204);
    expect(visitor.lastSetCookie).toMatch(/^deckforge_console=; .*Max-Age=0/);
    // A copy of the cookie kept from before sign-out is worth nothing: the session is gone on the server.
    const copy = new ConsoleVisitor(server.base);
    copy.cookie = signedInCookie;
    expect((await copy.open()).signedIn).toBe(false);
  });

  it('answers a wrong password with 401 and missing fields with 400 naming the field', async () => {
    const credentials = await server.createAccount();
    const visitor = new ConsoleVisitor(server.base);
    const wrong = await visitor.signIn(credentials.email, 'not-the-password');
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({
      statusCode: 401,
      message: 'Unauthorized',
      detail: 'the e-mail address or the password is wrong',
    });
    const missing = await visitor.post('/console/api/sign-in', { email: credentials.email });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({
      statusCode: 400,
      message: 'Invalid input parameters',
      details: expect.stringMatching(/^password: /),
    });
  });

  it('lets no request act without a signed-in session', async () => {
    const visitor = new ConsoleVisitor(server.base);
    await visitor.open();
    const out = await visitor.post('/console/api/sign-out');
    expect(out.status).toBe(401);
  });
});
