import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './index.js';

describe('mail and sign-up settings', () => {
  it('default to no mail server and closed sign-up', () => {
    expect(loadConfig({}).mail).toEqual({ smtpUrl: null, mailFrom: null, signup: 'closed', logOnly: false });
  });

  it('read the SMTP URL, the sender and sign-up', () => {
    const config = loadConfig({
      DECKFORGE_SMTP_URL: 'smtps://user:p%40ss@mail.example.com:465',
      DECKFORGE_MAIL_FROM: 'Deckforge <console@example.com>',
      DECKFORGE_SIGNUP: 'Open',
    });
    expect(config.mail).toEqual({
      smtpUrl: 'smtps://user:p%40ss@mail.example.com:465',
      mailFrom: 'Deckforge <console@example.com>',
      signup: 'open',
      logOnly: false,
    });
  });

  it('write mails to the log in development, on a loopback server only, never in production', () => {
    expect(loadConfig({ DECKFORGE_MAIL_LOG: 'true', DECKFORGE_SIGNUP: 'open' }).mail).toEqual({
      smtpUrl: null,
      mailFrom: 'Deckforge <deckforge@localhost>',
      signup: 'open',
      logOnly: true,
    });
    expect(
      loadConfig({ DECKFORGE_MAIL_LOG: 'true', HOST: '::1', DECKFORGE_PUBLIC_URL: 'http://localhost:8080' })
        .mail.logOnly,
    ).toBe(true);
    const refused: [Record<string, string>, RegExp][] = [
      [{ NODE_ENV: 'production' }, /for development only: NODE_ENV is production/],
      [{ HOST: '0.0.0.0' }, /HOST is 0\.0\.0\.0, which other machines can reach/],
      [
        { DECKFORGE_PUBLIC_URL: 'https://decks.example.com' },
        /DECKFORGE_PUBLIC_URL is https:\/\/decks\.example\.com/,
      ],
      [
        { DECKFORGE_SMTP_URL: 'smtp://mail.example.com', DECKFORGE_MAIL_FROM: 'a@b.c' },
        /to choose one way of sending mail/,
      ],
    ];
    for (const [env, message] of refused) {
      expect(() => loadConfig({ DECKFORGE_MAIL_LOG: 'true', ...env }), JSON.stringify(env)).toThrow(message);
    }
    expect(() => loadConfig({ DECKFORGE_MAIL_LOG: 'yes' })).toThrow(
      /DECKFORGE_MAIL_LOG must be true or false/,
    );
  });

  it('accept sign-up open without a mail server (the console reports it closed, with the reason)', () => {
    expect(loadConfig({ DECKFORGE_SIGNUP: 'open' }).mail.signup).toBe('open');
  });

  it('refuse bad values with a message naming the variable, never repeating an SMTP password', () => {
    const cases: [Record<string, string>, RegExp][] = [
      [
        { DECKFORGE_SMTP_URL: 'http://mail.example.com', DECKFORGE_MAIL_FROM: 'a@b.c' },
        /smtp:\/\/ or smtps:\/\//,
      ],
      [
        { DECKFORGE_SMTP_URL: 'not a url secret-pass', DECKFORGE_MAIL_FROM: 'a@b.c' },
        /DECKFORGE_SMTP_URL must be a URL/,
      ],
      [{ DECKFORGE_SMTP_URL: 'smtp://mail.example.com' }, /DECKFORGE_MAIL_FROM must be set/],
      [{ DECKFORGE_MAIL_FROM: 'nobody' }, /DECKFORGE_MAIL_FROM must be an e-mail address/],
      [{ DECKFORGE_SIGNUP: 'maybe' }, /DECKFORGE_SIGNUP must be open or closed/],
    ];
    for (const [env, message] of cases) {
      let caught: unknown;
      try {
        loadConfig(env);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(ConfigError);
      expect((caught as Error).message).toMatch(message);
      expect((caught as Error).message).not.toContain('secret-pass');
    }
  });
});
