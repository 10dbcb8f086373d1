/**
 * Sign-up without a mail server, in the development mode (DECKFORGE_MAIL_LOG=true): the confirmation mail is
 * written whole to the server's log, and the link in it confirms the account, over a real socket.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/servers/http-harness.js';
import { ConsoleVisitor } from '../support/http/console-client.js';

let server: RunningServer;

beforeAll(async () => {
  server = await startServer({
    overrides: {
      workers: 1,
      mail: { logOnly: true, mailFrom: 'Deckforge <deckforge@localhost>', signup: 'open' },
    },
  });
});
afterAll(async () => server?.close());

interface LoggedMail {
  from: string;
  to: string;
  subject: string;
  text: string;
}

async function mailLoggedFor(to: string): Promise<LoggedMail> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const mail = server.logs
      .flatMap((line) => line.split('\n'))
      .filter((line) => line.includes('"mail"'))
      .map((line) => (JSON.parse(line) as { mail: LoggedMail }).mail)
      .find((m) => m.to === to);
    if (mail) return mail;
    if (Date.now() > deadline) throw new Error(`no mail to ${to} in the log:\n${server.logs.join('')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('sign-up with mails written to the log', () => {
  it('says so at start, opens sign-up, logs the confirmation mail, and its link confirms the account', async () => {
    expect(server.logs.join('')).toContain(
      'DECKFORGE_MAIL_LOG=true: mails are written to this log instead of sent',
    );
    const visitor = new ConsoleVisitor(server.base);
    expect(await visitor.open()).toMatchObject({ signup: { open: true }, mailConfigured: true });
    const email = `dev-${Date.now().toString(36)}@example.test`;
    const password = 'correct horse battery';
    expect((await visitor.post('/console/api/sign-up', { email, password })).status).toBe(202);

    const mail = await mailLoggedFor(email);
    expect(mail).toMatchObject({
      from: 'Deckforge <deckforge@localhost>',
      subject: 'Confirm your Deckforge account',
    });
    const link =
      mail.text
        .split('\n')
        .find((l) => l.includes('/console/confirm?token='))
        ?.trim() ?? '';
    expect(link.startsWith(`${server.base}/console/confirm?token=`)).toBe(true);
    const confirmed = await visitor.post('/console/api/confirm', {
      token: new URL(link).searchParams.get('token'),
    });
    expect(confirmed.status).toBe(200);
    expect((await visitor.signIn(email, password)).status).toBe(200);
  });
});
