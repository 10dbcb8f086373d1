/** Random credentials and their stored hashes. */
import { createHash, randomBytes } from 'node:crypto';

/**
 * Bearer token: 32 random bytes, then "." and its expiry (Unix seconds, base 36). The expiry is not trusted for
 * anything: it only lets a token whose record the sweeper has deleted be told apart as expired rather than
 * unknown. Forging it changes nothing but that message.
 */
export function newAccessToken(expiresAt: Date): string {
  return `${randomBytes(32).toString('base64url')}.${Math.floor(expiresAt.getTime() / 1000).toString(36)}`;
}

/** The expiry a token carries, or null (a token from before tokens carried one, or not ours). */
export function statedTokenExpiry(token: string): Date | null {
  const match = /\.([0-9a-z]{1,10})$/.exec(token);
  return match ? new Date(parseInt(match[1]!, 36) * 1000) : null;
}

/** A token's public id (listings, revocation): 9 random bytes, unrelated to the token itself. */
export function newTokenId(): string {
  return randomBytes(9).toString('base64url');
}

/** Security key: 24 random bytes, shown once. */
export function newSecurityKey(): string {
  return randomBytes(24).toString('base64url');
}

/** A generated password for accounts created without one: 18 random bytes. */
export function newPassword(): string {
  return randomBytes(18).toString('base64url');
}

/** SHA-256 hex: enough for high-entropy random secrets (tokens, keys); passwords use the slow KDF. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}
