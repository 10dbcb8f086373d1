/**
 * The console's sessions over a real socket: the anonymous session and its cookie, CSRF refusals, sign-in and
 * sign-out, the cookie's name and flags over http and https, tossed and doubled cookies, and one account's cookie
 * never reading another's data.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/servers/http-harness.js';
import { ConsoleVisitor } from '../support/http/console-client.js';

let server: RunningServer;
let httpsServer: RunningServer;
let proxiedServer: RunningServer;

beforeAll(async () => {
  [server, httpsServer, proxiedServer] = await Promise.all([
    startServer(),
    startServer({ overrides: { publicBaseUrl: 'https://decks.example.test' } }),
    // Behind a TLS-terminating proxy on this machine (docs/security.md, "Running behind a reverse proxy").
    startServer({ overrides: { trustProxy: ['127.0.0.1', '::1'] } }),
  ]);
});
afterAll(async () => {
  await Promise.all([server?.close(), httpsServer?.close(), proxiedServer?.close()]);
});

/** The flags of the session cookie a first visit to `base` gets, the request carrying `headers`. */
async function cookieFlags(base: string, headers: Record<string, string> = {}): Promise<string[]> {
  const response = await fetch(`${base}/console/api/session`, { headers });
  expect(response.status).toBe(200);
  return response.headers.get('set-cookie')?.split('; ') ?? [];
}

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
    expect(flags.some((flag) => /^Domain=/i.test(flag))).toBe(false);
    // The same cookie keeps the same session and token, and is not set again.
    visitor.lastSetCookie = null;
    expect((await visitor.open()).csrfToken).toBe(body.csrfToken);
    expect(visitor.lastSetCookie).toBeNull();
  });

  it('names the cookie __Host-deckforge_console, Secure, Path=/ and no Domain when the public URL is https', async () => {
    const visitor = new ConsoleVisitor(httpsServer.base);
    await visitor.open();
    const flags = visitor.lastSetCookie?.split('; ') ?? [];
    expect(flags[0]).toMatch(/^__Host-deckforge_console=[A-Za-z0-9_-]{43}$/);
    expect(flags).toEqual(
      expect.arrayContaining([
        'Secure',
        'Path=/',
        'HttpOnly',
        'SameSite=Strict',
        `Max-Age=${7 * 24 * 60 * 60}`,
      ]),
    );
    expect(flags.filter((flag) => /^(Path|Domain)=/i.test(flag))).toEqual(['Path=/']);
    // An unprefixed cookie this host set before it was served over https is expired at the same time.
    expect(visitor.lastSetCookies.slice(1)).toEqual([
      'deckforge_console=; Path=/console; HttpOnly; SameSite=Strict; Max-Age=0; Secure',
    ]);
    // The prefixed cookie keeps its session.
    visitor.lastSetCookie = null;
    expect((await visitor.open()).signedIn).toBe(false);
    expect(visitor.lastSetCookie).toBeNull();
  });

  it('marks the cookie Secure when a trusted proxy says the request came over https, and only then', async () => {
    const proxied = await cookieFlags(proxiedServer.base, { 'x-forwarded-proto': 'https' });
    expect(proxied[0]).toMatch(/^__Host-deckforge_console=/);
    expect(proxied).toEqual(expect.arrayContaining(['Secure', 'Path=/']));
    const plain = await cookieFlags(proxiedServer.base);
    expect(plain[0]).toMatch(/^deckforge_console=/);
    expect(plain).not.toContain('Secure');
    // A client talking to the server directly cannot claim https for itself.
    const claimed = await cookieFlags(server.base, { 'x-forwarded-proto': 'https' });
    expect(claimed[0]).toMatch(/^deckforge_console=/);
    expect(claimed).not.toContain('Secure');
  });

  it('takes no unprefixed cookie for a session over https: a tossed cookie signs nobody in', async () => {
    // The attacker signs in to their own account and plants their session id, unprefixed, from a sibling host.
    const attacker = new ConsoleVisitor(httpsServer.base);
    const credentials = await httpsServer.createAccount();
    expect((await attacker.signIn(credentials.email, credentials.password)).status).toBe(200);
    expect(attacker.cookieName).toBe('__Host-deckforge_console');
    const victim = new ConsoleVisitor(httpsServer.base);
    victim.cookieName = 'deckforge_console';
    victim.cookie = attacker.cookie;
    expect((await victim.get('/console/api/security-key')).status).toBe(401);
    const session = await victim.open();
    expect(session.signedIn).toBe(false);
    expect(session).not.toHaveProperty('account');
    // The victim got a session of their own, under the prefixed name.
    expect(victim.cookieName).toBe('__Host-deckforge_console');
    expect(victim.cookie).not.toBe(attacker.cookie);
    // The attacker's own cookie still works for the attacker.
    expect((await attacker.get('/console/api/security-key')).status).toBe(200);
  });

  it('refuses a request carrying two session cookies with a 400 saying to clear the cookies', async () => {
    const credentials = await httpsServer.createAccount();
    const owner = new ConsoleVisitor(httpsServer.base);
    expect((await owner.signIn(credentials.email, credentials.password)).status).toBe(200);
    const attacker = new ConsoleVisitor(httpsServer.base);
    const attackerCredentials = await httpsServer.createAccount();
    expect((await attacker.signIn(attackerCredentials.email, attackerCredentials.password)).status).toBe(200);
    const own = `__Host-deckforge_console=${owner.cookie}`;
    const cases: [string, string][] = [
      [httpsServer.base, `${own}; deckforge_console=${attacker.cookie}`],
      [httpsServer.base, `deckforge_console=${attacker.cookie}; ${own}`],
      [httpsServer.base, `${own}; __Host-deckforge_console=${attacker.cookie}`],
      [httpsServer.base, `__Host-deckforge_console=${attacker.cookie}; ${own}`],
      [server.base, `deckforge_console=${'a'.repeat(43)}; deckforge_console=${'b'.repeat(43)}`],
      [server.base, `deckforge_console=${'a'.repeat(43)}; __Host-deckforge_console=${'b'.repeat(43)}`],
    ];
    for (const [base, cookie] of cases) {
      for (const [method, path] of [
        ['GET', '/console/api/session'],
        ['GET', '/console/api/security-key'],
        ['POST', '/console/api/security-key/rotate'],
      ] as const) {
        const response = await fetch(`${base}${path}`, {
          method,
          headers: { cookie, 'x-csrf-token': owner.csrfToken ?? '' },
        });
        expect({ cookie, path, status: response.status }).toEqual({ cookie, path, status: 400 });
        expect(await response.json()).toEqual({
          statusCode: 400,
          message: 'Invalid input parameters',
          details: expect.stringMatching(
            /^this request carries 2 console session cookies \(.+\), .*clear the cookies of this site in your browser, then sign in again$/,
          ),
        });
        expect(response.headers.get('set-cookie')).toBeNull();
      }
    }
    // One cookie, the owner's own, still works.
    expect((await owner.open()).account).toMatchObject({ email: credentials.email });
    expect((await owner.get('/console/api/security-key')).status).toBe(200);
  });

  it('signs out over https by expiring both cookies', async () => {
    const credentials = await httpsServer.createAccount();
    const visitor = new ConsoleVisitor(httpsServer.base);
    expect((await visitor.signIn(credentials.email, credentials.password)).status).toBe(200);
    const signedInCookie = visitor.cookie;
    expect((await visitor.post('/console/api/sign-out')).status).toBe(204);
    expect(visitor.lastSetCookies).toEqual([
      '__Host-deckforge_console=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0; Secure',
      'deckforge_console=; Path=/console; HttpOnly; SameSite=Strict; Max-Age=0; Secure',
    ]);
    expect(visitor.cookie).toBeNull();
    const copy = new ConsoleVisitor(httpsServer.base);
    copy.cookieName = '__Host-deckforge_console';
    copy.cookie = signedInCookie;
    expect((await copy.open()).signedIn).toBe(false);
  });

  it('keeps the cookie for the absolute lifetime of a session, seven days, and no longer', async () => {
    const maxAge = (await cookieFlags(server.base)).filter((flag) => flag.startsWith('Max-Age='));
    expect(maxAge).toEqual([`Max-Age=${7 * 24 * 60 * 60}`]);
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
    expect(visitor.lastSetCookies).toEqual([
      'deckforge_console=; Path=/console; HttpOnly; SameSite=Strict; Max-Age=0',
      '__Host-deckforge_console=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0; Secure',
    ]);
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

  it('refuses sign-up while the operator keeps it closed (the default), saying so', async () => {
    const visitor = new ConsoleVisitor(server.base);
    await visitor.open();
    const refused = await visitor.post('/console/api/sign-up', {
      email: 'new-user@example.test',
      password: 'long enough',
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      statusCode: 403,
      message: 'Forbidden',
      detail: 'sign-up is closed on this server',
    });
  });

  it('lets no request act without a signed-in session', async () => {
    const visitor = new ConsoleVisitor(server.base);
    await visitor.open();
    // Signing out an anonymous session just ends it.
    expect((await visitor.post('/console/api/sign-out')).status).toBe(204);
    expect(visitor.cookie).toBeNull();
    await visitor.open();
    for (const answer of [
      await visitor.get('/console/api/security-key'),
      await visitor.post('/console/api/security-key/rotate'),
      await visitor.post('/console/api/password', { currentPassword: 'x', newPassword: 'long enough' }),
    ]) {
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ statusCode: 401, message: 'Unauthorized', detail: expect.any(String) });
    }
  });

  it('rations new sessions per client address, so cookie-less requests cannot fill the session table', async () => {
    const regular = new ConsoleVisitor(server.base);
    await regular.open();
    // Sixty a minute (SESSIONS_PER_NETWORK_PER_MINUTE); earlier tests of this file opened some already.
    let refused: Response | null = null;
    for (let i = 0; i < 61 && refused === null; i++) {
      const response = await fetch(`${server.base}/console/api/session`);
      await response.arrayBuffer();
      if (response.status === 429) refused = response;
      else expect(response.status).toBe(200);
    }
    expect(refused?.status).toBe(429);
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // A visitor that keeps its cookie is not affected; a minute later new ones are welcome again.
    expect((await regular.open()).signedIn).toBe(false);
    server.clock.advance(60_000);
    expect((await fetch(`${server.base}/console/api/session`)).status).toBe(200);
  });
});
