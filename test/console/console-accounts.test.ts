/**
 * The console's accounts over a real socket, with a real SMTP server (smtp-server) catching the mails: sign-up,
 * the key and link in the confirmation mail, confirmation, sign-in, the taken address, password change and reset,
 * key rotation (mailed, or shown once without a mail server), and one account's cookie against another's data.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, issueToken, startServer, type RunningServer } from '../support/servers/http-harness.js';
import { startMailCatcher, type CaughtMail, type MailCatcher } from '../support/servers/mail-catcher.js';
import { ConsoleVisitor } from '../support/http/console-client.js';

let catcher: MailCatcher;
let server: RunningServer;
let noMail: RunningServer;

beforeAll(async () => {
  catcher = await startMailCatcher();
  [server, noMail] = await Promise.all([
    startServer({
      overrides: {
        workers: 1,
        mail: { smtpUrl: catcher.url, mailFrom: 'Deckforge <console@deckforge.test>', signup: 'open' },
      },
    }),
    startServer({ overrides: { workers: 1, mail: { signup: 'open' } } }),
  ]);
});
afterAll(async () => {
  await Promise.all([server?.close(), noMail?.close()]);
  await catcher?.close();
});

let counter = 0;
const newAddress = (): string => `owner-${Date.now().toString(36)}-${++counter}@example.test`;

/** The one line of the mail's text that starts with `prefix` (a link), or the indented key line. */
function linkIn(mail: CaughtMail, page: string): string {
  const line = mail.text.split('\n').find((l) => l.includes(`/console/${page}?token=`));
  if (!line) throw new Error(`no /console/${page} link in:\n${mail.text}`);
  return line.trim();
}
function keyIn(mail: CaughtMail): string {
  const line = mail.text.split('\n').find((l) => /^ {4}[A-Za-z0-9_-]{32}$/.test(l));
  if (!line) throw new Error(`no key in:\n${mail.text}`);
  return line.trim();
}
const tokenOf = (link: string): string => new URL(link).searchParams.get('token') ?? '';

async function tokenCreate(base: string, email: string, password: string, key: string): Promise<Response> {
  return fetch(`${base}/v1.0/token/create`, {
    method: 'POST',
    body: new URLSearchParams({ username: email, password, key }),
  });
}

describe('console sign-up and confirmation', () => {
  it('mails the key and a link that confirms once; the account is usable only after it', async () => {
    const email = newAddress();
    const password = 'correct horse battery';
    const visitor = new ConsoleVisitor(server.base);
    const session = await visitor.open();
    expect(session).toMatchObject({ signup: { open: true }, mailConfigured: true });
    const answer = await visitor.post('/console/api/sign-up', { email, password });
    expect(answer.status).toBe(202);
    expect(answer.body).toEqual({ message: expect.stringContaining(email) });

    const mail = await catcher.next(email);
    expect(mail.from).toBe('console@deckforge.test');
    expect(mail.subject).toBe('Confirm your Deckforge account');
    const link = linkIn(mail, 'confirm');
    expect(link.startsWith(`${server.base}/console/confirm?token=`)).toBe(true);
    const key = keyIn(mail);

    // Not confirmed yet: no console session, no API token; each says why.
    const early = await visitor.signIn(email, password);
    expect(early.status).toBe(403);
    expect((early.body as { detail: string }).detail).toMatch(/not confirmed/);
    const earlyToken = await tokenCreate(server.base, email, password, key);
    expect(earlyToken.status).toBe(403);
    expect(((await earlyToken.json()) as { Message: string }).Message).toMatch(/not confirmed/);

    const confirmed = await visitor.post('/console/api/confirm', { token: tokenOf(link) });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toEqual({ email });
    const again = await visitor.post('/console/api/confirm', { token: tokenOf(link) });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({
      statusCode: 400,
      message: 'Invalid input parameters',
      details: 'token: this link was used already',
    });

    const signedIn = await visitor.signIn(email, password);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toMatchObject({ account: { email, plan: 'Free', emailConfirmed: true } });
    // The key from the mail, with the password, makes an API token that works.
    const token = await issueToken(server.base, { email, password, key });
    expect((await fetch(`${server.base}/v1.0/usage`, { headers: bearer(token) })).status).toBe(200);

    // None of the secrets of this story reached the server's log.
    const log = server.logs.join('');
    for (const secret of [password, key, tokenOf(link), visitor.cookie ?? 'no cookie', token]) {
      expect(log).not.toContain(secret);
    }
    expect(log).toContain('console sign-up: confirmation mail sent');
  });

  it('answers a taken address exactly like a new one, and mails its owner instead', async () => {
    const owner = await server.createAccount();
    const visitor = new ConsoleVisitor(server.base);
    await visitor.open();
    const fresh = newAddress();
    const forNew = await visitor.post('/console/api/sign-up', { email: fresh, password: 'password-one' });
    const forTaken = await visitor.post('/console/api/sign-up', {
      email: owner.email,
      password: 'password-two',
    });
    expect(forTaken.status).toBe(forNew.status);
    expect((forTaken.body as { message: string }).message.replace(owner.email, 'X')).toBe(
      (forNew.body as { message: string }).message.replace(fresh, 'X'),
    );
    const mail = await catcher.next(owner.email);
    expect(mail.subject).toBe('You already have a Deckforge account');
    expect(mail.text).toContain(`${server.base}/console/sign-in`);
    expect(mail.text).not.toMatch(/token=/);
    await catcher.next(fresh);
    // The owner's password is untouched by the second sign-up.
    const signIn = await new ConsoleVisitor(server.base).signIn(owner.email, owner.password);
    expect(signIn.status).toBe(200);
  });

  it('refuses bad input with a 400 naming the field', async () => {
    const visitor = new ConsoleVisitor(server.base);
    await visitor.open();
    const badEmail = await visitor.post('/console/api/sign-up', { email: 'nobody', password: 'long enough' });
    expect(badEmail.status).toBe(400);
    expect((badEmail.body as { details: string }).details).toMatch(/^email: /);
    const shortPassword = await visitor.post('/console/api/sign-up', {
      email: newAddress(),
      password: 'short',
    });
    expect((shortPassword.body as { details: string }).details).toMatch(/^password: at least 8/);
    const unknownLink = await visitor.post('/console/api/confirm', { token: 'A'.repeat(43) });
    expect((unknownLink.body as { details: string }).details).toMatch(/^token: this link is not valid/);
  });

  it('keeps sign-up closed without a mail server, and says why', async () => {
    const visitor = new ConsoleVisitor(noMail.base);
    const session = await visitor.open();
    expect(session).toMatchObject({
      signup: { open: false, reason: 'no mail server configured' },
      mailConfigured: false,
    });
    const refused = await visitor.post('/console/api/sign-up', {
      email: newAddress(),
      password: 'long enough',
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      statusCode: 403,
      message: 'Forbidden',
      detail: 'no mail server configured',
    });
  });
});

describe('console password', () => {
  it('changes it with the old one only, and ends the other sessions of the account', async () => {
    const owner = await server.createAccount();
    const here = new ConsoleVisitor(server.base);
    const elsewhere = new ConsoleVisitor(server.base);
    expect((await here.signIn(owner.email, owner.password)).status).toBe(200);
    expect((await elsewhere.signIn(owner.email, owner.password)).status).toBe(200);

    const wrongOld = await here.post('/console/api/password', {
      currentPassword: 'not the password',
      newPassword: 'a brand new password',
    });
    expect(wrongOld.status).toBe(400);
    expect((wrongOld.body as { details: string }).details).toMatch(/^currentPassword: /);

    const changed = await here.post('/console/api/password', {
      currentPassword: owner.password,
      newPassword: 'a brand new password',
    });
    expect(changed.status).toBe(204);
    expect((await here.open()).signedIn).toBe(true);
    expect((await elsewhere.open()).signedIn).toBe(false);
    expect((await new ConsoleVisitor(server.base).signIn(owner.email, owner.password)).status).toBe(401);
    expect((await new ConsoleVisitor(server.base).signIn(owner.email, 'a brand new password')).status).toBe(
      200,
    );
  });

  it('resets it through a mailed link that works once and expires after an hour', async () => {
    const owner = await server.createAccount();
    const visitor = new ConsoleVisitor(server.base);
    await visitor.open();
    const signedIn = new ConsoleVisitor(server.base);
    expect((await signedIn.signIn(owner.email, owner.password)).status).toBe(200);

    const stranger = newAddress();
    const unknown = await visitor.post('/console/api/password-reset', { email: stranger });
    const known = await visitor.post('/console/api/password-reset', { email: owner.email });
    expect([unknown.status, known.status]).toEqual([202, 202]);
    // The mails are sent after the answers; once that work has ended, the unknown address has none.
    await server.runtime.settled();
    expect(catcher.pending(stranger)).toEqual([]);
    const mail = await catcher.next(owner.email);
    expect(mail.subject).toBe('Reset your Deckforge password');
    const link = linkIn(mail, 'reset');
    expect(link.startsWith(`${server.base}/console/reset?token=`)).toBe(true);

    const done = await visitor.post('/console/api/password-reset/complete', {
      token: tokenOf(link),
      newPassword: 'reset password 1',
    });
    expect(done.status).toBe(204);
    const reused = await visitor.post('/console/api/password-reset/complete', {
      token: tokenOf(link),
      newPassword: 'reset password 2',
    });
    expect(reused.status).toBe(400);
    expect((reused.body as { details: string }).details).toBe('token: this link was used already');
    // Every session of the account ended with the reset.
    expect((await signedIn.open()).signedIn).toBe(false);
    expect((await new ConsoleVisitor(server.base).signIn(owner.email, 'reset password 1')).status).toBe(200);

    await visitor.post('/console/api/password-reset', { email: owner.email });
    const late = linkIn(await catcher.next(owner.email), 'reset');
    server.clock.advance(61 * 60 * 1000);
    const expired = await visitor.post('/console/api/password-reset/complete', {
      token: tokenOf(late),
      newPassword: 'reset password 3',
    });
    expect(expired.status).toBe(400);
    expect((expired.body as { details: string }).details).toMatch(/^token: this link has expired/);
    expect((await new ConsoleVisitor(server.base).signIn(owner.email, 'reset password 1')).status).toBe(200);
  });
});

describe('console links and disabled accounts', () => {
  it('a link works only for its purpose: a confirmation link resets no password, a reset link confirms nothing', async () => {
    const email = newAddress();
    const visitor = new ConsoleVisitor(server.base);
    await visitor.open();
    expect((await visitor.post('/console/api/sign-up', { email, password: 'first password' })).status).toBe(
      202,
    );
    const confirmLink = linkIn(await catcher.next(email), 'confirm');
    const asReset = await visitor.post('/console/api/password-reset/complete', {
      token: tokenOf(confirmLink),
      newPassword: 'taken over password',
    });
    expect(asReset.status).toBe(400);
    expect((asReset.body as { details: string }).details).toMatch(/^token: this link is not valid/);

    const owner = await server.createAccount();
    await visitor.post('/console/api/password-reset', { email: owner.email });
    const resetLink = linkIn(await catcher.next(owner.email), 'reset');
    const asConfirm = await visitor.post('/console/api/confirm', { token: tokenOf(resetLink) });
    expect(asConfirm.status).toBe(400);
    expect((asConfirm.body as { details: string }).details).toMatch(/^token: this link is not valid/);
    // Both links still do what they were made for.
    expect((await visitor.post('/console/api/confirm', { token: tokenOf(confirmLink) })).status).toBe(200);
    expect((await new ConsoleVisitor(server.base).signIn(email, 'first password')).status).toBe(200);
  });

  it('a disabled account gets no reset mail, and a link sent before it was disabled sets no password', async () => {
    const owner = await server.createAccount();
    const visitor = new ConsoleVisitor(server.base);
    await visitor.open();
    server.clock.advance(61_000);
    await visitor.post('/console/api/password-reset', { email: owner.email });
    const early = linkIn(await catcher.next(owner.email), 'reset');
    await server.runtime.admin.disable(owner.email);

    const asked = await visitor.post('/console/api/password-reset', { email: owner.email });
    expect(asked.status).toBe(202);
    await server.runtime.settled();
    expect(catcher.pending(owner.email)).toEqual([]);
    const done = await visitor.post('/console/api/password-reset/complete', {
      token: tokenOf(early),
      newPassword: 'password of an intruder',
    });
    expect(done.status).toBe(403);
    await server.runtime.admin.enable(owner.email);
    expect((await new ConsoleVisitor(server.base).signIn(owner.email, owner.password)).status).toBe(200);
    server.clock.advance(61_000);
  });
});

describe('console mail rationing', () => {
  it('sends one address at most two mails a minute, whoever asks', async () => {
    const owner = await server.createAccount();
    const visitor = new ConsoleVisitor(server.base);
    await visitor.open();
    const answers = [];
    for (let i = 0; i < 3; i++) {
      answers.push(await visitor.post('/console/api/password-reset', { email: owner.email }));
    }
    expect(answers.map((a) => a.status)).toEqual([202, 202, 429]);
    expect(Number(answers[2]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    await catcher.next(owner.email);
    await catcher.next(owner.email);
    expect(catcher.pending(owner.email)).toEqual([]);
    server.clock.advance(60_000);
  });
});

describe('console security key', () => {
  it("mails a new key and revokes the account's tokens", async () => {
    const owner = await server.signUp();
    const visitor = new ConsoleVisitor(server.base);
    await visitor.signIn(owner.email, owner.password);
    const info = await visitor.get('/console/api/security-key');
    expect(info.body).toEqual({ exists: true, createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });

    const rotated = await visitor.post('/console/api/security-key/rotate');
    expect(rotated.status).toBe(200);
    expect(rotated.body).toEqual({ emailed: true });
    const mail = await catcher.next(owner.email);
    expect(mail.subject).toBe('Your new Deckforge security key');
    const key = keyIn(mail);
    expect(key).not.toBe(owner.key);

    expect((await fetch(`${server.base}/v1.0/usage`, { headers: bearer(owner.token) })).status).toBe(401);
    expect((await tokenCreate(server.base, owner.email, owner.password, owner.key)).status).toBe(401);
    const token = await issueToken(server.base, { ...owner, key });
    expect((await fetch(`${server.base}/v1.0/usage`, { headers: bearer(token) })).status).toBe(200);
  });

  it('shows the new key once when no mail server is configured', async () => {
    const owner = await noMail.signUp();
    const visitor = new ConsoleVisitor(noMail.base);
    await visitor.signIn(owner.email, owner.password);
    const rotated = await visitor.post('/console/api/security-key/rotate');
    expect(rotated.body).toEqual({
      emailed: false,
      securityKey: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/),
    });
    const key = (rotated.body as { securityKey: string }).securityKey;
    expect((await fetch(`${noMail.base}/v1.0/usage`, { headers: bearer(owner.token) })).status).toBe(401);
    expect(await issueToken(noMail.base, { ...owner, key })).toEqual(expect.any(String));
    // Once: reading the key's state afterwards never shows it again.
    expect(JSON.stringify((await visitor.get('/console/api/security-key')).body)).not.toContain(key);
  });

  it("acts only on the session's own account: another account's token and CSRF token do not reach it", async () => {
    const a = await server.signUp();
    const b = await server.signUp();
    const visitorA = new ConsoleVisitor(server.base);
    const visitorB = new ConsoleVisitor(server.base);
    await visitorA.signIn(a.email, a.password);
    await visitorB.signIn(b.email, b.password);
    // A's cookie with B's CSRF token: refused before anything runs.
    const crossed = await visitorA.post('/console/api/security-key/rotate', undefined, {
      csrf: visitorB.csrfToken,
    });
    expect(crossed.status).toBe(403);
    // A rotates: A's tokens go, B's stay; A's session shows A only.
    expect((await visitorA.post('/console/api/security-key/rotate')).status).toBe(200);
    await catcher.next(a.email);
    expect((await fetch(`${server.base}/v1.0/usage`, { headers: bearer(a.token) })).status).toBe(401);
    expect((await fetch(`${server.base}/v1.0/usage`, { headers: bearer(b.token) })).status).toBe(200);
    expect(await visitorA.open()).toMatchObject({ account: { email: a.email } });
    expect(await visitorB.open()).toMatchObject({ account: { email: b.email } });
  });
});
