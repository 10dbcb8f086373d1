/**
 * The console's mail and sign-up settings (issue 24): the SMTP server the mails go through, their sender, and
 * whether anyone may sign up. Sign-up set to open without a mail server is not refused at start-up: the console
 * reports sign-up as closed with the reason ("no mail server configured"), because an account made by sign-up
 * is usable only through the link its confirmation mail carries. An operator preparing a server can so set
 * `DECKFORGE_SIGNUP=open` first and add the mail server later without the server refusing to start.
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
}

const SENDER = /^(?:[^<>\r\n]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/;

export function loadMailSettings(env: Env): MailSettings {
  const smtpUrl = smtp(env.DECKFORGE_SMTP_URL?.trim() || null);
  const mailFrom = env.DECKFORGE_MAIL_FROM?.trim() || null;
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
  return { smtpUrl, mailFrom, signup };
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
