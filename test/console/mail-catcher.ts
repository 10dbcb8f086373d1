/**
 * A real SMTP server for the console tests (smtp-server from npm, on a free local port): the server under test
 * sends its mails here through nodemailer, and the test waits for the one addressed to someone.
 */
import { SMTPServer } from 'smtp-server';

export interface CaughtMail {
  to: string[];
  /** The message as sent (headers and body), quoted-printable soft breaks and escapes undone. */
  text: string;
}

export interface MailCatcher {
  url: string;
  mails: CaughtMail[];
  /** The next mail to `address` after the ones already seen; fails after `ms`. */
  next(address: string, ms?: number): Promise<CaughtMail>;
  close(): Promise<void>;
}

/** Undoes quoted-printable (`=\r\n` soft breaks, `=3D`); harmless on 7bit or base64-free text parts. */
function decodeQuotedPrintable(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

export async function startMailCatcher(): Promise<MailCatcher> {
  const mails: CaughtMail[] = [];
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          text: decodeQuotedPrintable(Buffer.concat(chunks).toString('utf8')),
        });
        waiters.splice(0).forEach((wake) => wake());
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  if (address === null || typeof address === 'string') throw new Error('the SMTP server has no port');
  const seen = new Map<string, number>();
  return {
    url: `smtp://127.0.0.1:${address.port}`,
    mails,
    async next(to, ms = 20_000) {
      const wanted = to.toLowerCase();
      const deadline = Date.now() + ms;
      for (;;) {
        const already = seen.get(wanted) ?? 0;
        const matching = mails.filter((m) => m.to.includes(wanted));
        const mail = matching[already];
        if (mail) {
          seen.set(wanted, already + 1);
          return mail;
        }
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no mail to ${to} within ${ms} ms (${mails.length} caught)`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
