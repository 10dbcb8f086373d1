/**
 * The console's mail and sign-up settings (docs/console.md): the SMTP server the mails go through, their sender, and
 * whether anyone may sign up. Sign-up set to open without a mail server is not refused at start-up: the console
 * reports sign-up as closed with the reason ("no mail server configured"), because an account made by sign-up
 * is usable only through the link its confirmation mail carries. An operator preparing a server can so set
 * `DECKFORGE_SIGNUP=open` first and add the mail server later without the server refusing to start.
 *
 * `DECKFORGE_MAIL_LOG=true` is the development mode: mails are written to the server's log instead of sent, so
 * sign-up and password reset can be tried without a mail server. The log then holds one-time links and security
 * keys, so the mode is refused in production (`NODE_ENV=production`) and on a server others can reach (a
 * non-loopback `HOST` or `DECKFORGE_PUBLIC_URL`).
 */
import { ConfigError } from './config-error.js';
import type { Env } from './env-values.js';

export interface MailSettings {
  /** DECKFORGE_SMTP_URL (smtp:// or smtps://, credentials in the URL); null = no mail server. */
  smtpUrl: string | null;
  /** DECKFORGE_MAIL_FROM: the sender of the console's mails; required with a mail server. */
  mailFrom: string | null;
  /** DECKFORGE_SIGNUP, default closed. */
  signup: 'open' | 'closed';
  /** DECKFORGE_MAIL_LOG, default false: mails go to the server's log, not to a mail server (development). */
  logOnly: boolean;
}

/** Where the server can be reached from, for the development mode's check. */
export interface Reach {
  host: string;
  publicBaseUrl: string | null;
}

const DEFAULT_DEVELOPMENT_SENDER = 'Deckforge <deckforge@localhost>';

function isLoopback(host: string): boolean {
  const name = host.replace(/^\[|\]$/g, '').toLowerCase();
  return name === 'localhost' || name === '::1' || /^127(?:\.\d{1,3}){3}$/.test(name);
}

const SENDER = /^(?:[^<>\r\n]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/;

export function loadMailSettings(env: Env, reach: Reach): MailSettings {
  const smtpUrl = smtp(env.DECKFORGE_SMTP_URL?.trim() || null);
  const logOnly = mailLog(env, smtpUrl, reach);
  const mailFrom = env.DECKFORGE_MAIL_FROM?.trim() || (logOnly ? DEFAULT_DEVELOPMENT_SENDER : null);
  if (mailFrom !== null && !SENDER.test(mailFrom)) {
    throw new ConfigError(
      `DECKFORGE_MAIL_FROM must be an e-mail address or "Name <address>", got "${mailFrom}"`,
    );
  }
  if (smtpUrl !== null && mailFrom === null) {
    throw new ConfigError(
      "DECKFORGE_MAIL_FROM must be set when DECKFORGE_SMTP_URL is: it is the mails' sender",
    );
  }
  const signup = (env.DECKFORGE_SIGNUP?.trim() || 'closed').toLowerCase();
  if (signup !== 'open' && signup !== 'closed') {
    throw new ConfigError(`DECKFORGE_SIGNUP must be open or closed, got "${env.DECKFORGE_SIGNUP}"`);
  }
  return { smtpUrl, mailFrom, signup, logOnly };
}

function mailLog(env: Env, smtpUrl: string | null, reach: Reach): boolean {
  const raw = (env.DECKFORGE_MAIL_LOG?.trim() || 'false').toLowerCase();
  if (raw !== 'true' && raw !== 'false') {
    throw new ConfigError(`DECKFORGE_MAIL_LOG must be true or false, got "${env.DECKFORGE_MAIL_LOG}"`);
  }
  if (raw === 'false') return false;
  const refused = (why: string): ConfigError =>
    new ConfigError(
      `DECKFORGE_MAIL_LOG=true writes one-time links and security keys to the log, so it is for development ` +
        `only: ${why}`,
    );
  if (smtpUrl !== null) throw refused('unset it, or DECKFORGE_SMTP_URL, to choose one way of sending mail');
  if (env.NODE_ENV?.trim() === 'production') throw refused('NODE_ENV is production');
  if (!isLoopback(reach.host)) throw refused(`HOST is ${reach.host}, which other machines can reach`);
  if (reach.publicBaseUrl !== null && !isLoopback(new URL(reach.publicBaseUrl).hostname)) {
    throw refused(`DECKFORGE_PUBLIC_URL is ${reach.publicBaseUrl}, which is not this machine`);
  }
  return true;
}

function smtp(raw: string | null): string | null {
  if (raw === null) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    // The URL may hold a password: the message does not repeat it.
    throw new ConfigError('DECKFORGE_SMTP_URL must be a URL such as smtp://user:pass@mail.example.com:587');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
    throw new ConfigError(`DECKFORGE_SMTP_URL must start with smtp:// or smtps://, got ${url.protocol}//`);
  }
  if (url.hostname === '') throw new ConfigError("DECKFORGE_SMTP_URL must name the mail server's host");
  return raw;
}
