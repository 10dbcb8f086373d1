/**
 * Links that work once and expire: address confirmation (CONFIRM_VALIDITY_MS) and password reset
 * (RESET_VALIDITY_MS). The token is 32 random bytes; the store keeps its SHA-256 only. Redeeming says exactly
 * what is wrong with a link that does not work (unknown, used, expired), as a 400 on the `token` field.
 */
import { randomBytes } from 'node:crypto';
import { InvalidInputError } from '../errors.js';
import type { Clock, OneTimePurpose, OneTimeTokenRecord, OneTimeTokenStore } from '../ports/index.js';
import { sha256Hex } from './secrets.js';

export const CONFIRM_VALIDITY_MS = 48 * 60 * 60 * 1000;
export const RESET_VALIDITY_MS = 60 * 60 * 1000;

const VALIDITY: Record<OneTimePurpose, number> = {
  'confirm-email': CONFIRM_VALIDITY_MS,
  'reset-password': RESET_VALIDITY_MS,
};

/** Where each purpose's link leads in the console. */
export const LINK_PAGE: Record<OneTimePurpose, string> = {
  'confirm-email': '/console/confirm',
  'reset-password': '/console/reset',
};

export interface LinkDeps {
  oneTimeTokens: OneTimeTokenStore;
  clock: Clock;
}

/** A new token for `accountId`; returns the token itself, which only the mail will hold. */
export async function issueLinkToken(
  deps: LinkDeps,
  accountId: string,
  purpose: OneTimePurpose,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const now = deps.clock.now();
  await deps.oneTimeTokens.create({
    tokenHash: sha256Hex(token),
    accountId,
    purpose,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + VALIDITY[purpose]).toISOString(),
    usedAt: null,
  });
  return token;
}

export function linkFor(base: string, purpose: OneTimePurpose, token: string): string {
  return `${base}${LINK_PAGE[purpose]}?token=${encodeURIComponent(token)}`;
}

/** Marks the token used and returns its record, or throws InvalidInputError saying why the link does not work. */
export async function redeemLinkToken(
  deps: LinkDeps,
  token: string,
  purpose: OneTimePurpose,
): Promise<OneTimeTokenRecord> {
  const value = token.trim();
  const record = /^[A-Za-z0-9_-]{43}$/.test(value) ? await deps.oneTimeTokens.find(sha256Hex(value)) : null;
  if (!record || record.purpose !== purpose) {
    throw new InvalidInputError('token: this link is not valid; copy the whole link from the e-mail');
  }
  const now = deps.clock.now();
  if (record.usedAt !== null) throw new InvalidInputError('token: this link was used already');
  if (new Date(record.expiresAt).getTime() <= now.getTime()) {
    throw new InvalidInputError(`token: this link has expired; ${again(purpose)}`);
  }
  // Two clicks at once: only one marks it.
  if (!(await deps.oneTimeTokens.markUsed(record.tokenHash, now.toISOString()))) {
    throw new InvalidInputError('token: this link was used already');
  }
  return record;
}

function again(purpose: OneTimePurpose): string {
  return purpose === 'confirm-email'
    ? 'sign up again with the same address to get a new one'
    : 'ask for a new password reset';
}
