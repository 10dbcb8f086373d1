/** Random credentials and their stored hashes. */
import { createHash, randomBytes } from 'node:crypto';

/** Bearer token: 32 random bytes. */
export function newAccessToken(): string {
  return randomBytes(32).toString('base64url');
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
