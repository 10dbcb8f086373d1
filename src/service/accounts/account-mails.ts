/**
 * The console's e-mails, as plain text. Each says why it was sent, so a mail that reaches someone who did not ask
 * for it can be ignored. The texts carry keys and one-time links: they are handed to the Mailer and never logged.
 */
import type { MailMessage } from '../ports/index.js';

export function confirmationMail(to: string, link: string, key: string): MailMessage {
  return {
    to,
    subject: 'Confirm your Deckforge account',
    text: [
      'Welcome to Deckforge.',
      '',
      'Confirm this e-mail address to start using your account (the link works once, for 48 hours):',
      link,
      '',
      'Your security key, needed with your e-mail and password to create API tokens',
      '(POST /v1.0/token/create, field "key"). It is sent only this once; keep it safe:',
      '',
      `    ${key}`,
      '',
      'If you did not sign up, ignore this mail: the account stays unusable without the link.',
    ].join('\n'),
  };
}

export function alreadyRegisteredMail(to: string, signInLink: string, resetLink: string): MailMessage {
  return {
    to,
    subject: 'You already have a Deckforge account',
    text: [
      'Someone (probably you) tried to sign up to Deckforge with this address, which already has an account.',
      '',
      `Sign in: ${signInLink}`,
      `Forgot the password? Reset it: ${resetLink}`,
      '',
      'If this was not you, ignore this mail: nothing was changed.',
    ].join('\n'),
  };
}

export function passwordResetMail(to: string, link: string): MailMessage {
  return {
    to,
    subject: 'Reset your Deckforge password',
    text: [
      'Choose a new password for your Deckforge account (the link works once, for one hour):',
      link,
      '',
      'If you did not ask for this, ignore this mail: your password stays as it is.',
    ].join('\n'),
  };
}

export function newKeyMail(to: string, key: string): MailMessage {
  return {
    to,
    subject: 'Your new Deckforge security key',
    text: [
      'The security key of your Deckforge account was replaced from the console. Every API token made',
      'with the old key has been revoked. The new key (sent only this once):',
      '',
      `    ${key}`,
      '',
      'If you did not do this, change your password at once and tell the operator of the server.',
    ].join('\n'),
  };
}
