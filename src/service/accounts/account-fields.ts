/** What an e-mail address and a new password must be, with the field named in the error (400, shape A). */
import { InvalidInputError } from '../errors.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const MIN_PASSWORD_LENGTH = 8;
/** scrypt takes any length, but a megabyte password is only a way to make the server work. */
export const MAX_PASSWORD_LENGTH = 1024;

/** The address, trimmed and lower-case (as stored). */
export function checkedEmail(raw: string, field = 'email'): string {
  const email = raw.trim().toLowerCase();
  if (email.length > 254 || !EMAIL.test(email)) {
    throw new InvalidInputError(`${field}: "${raw.trim().slice(0, 80)}" is not an e-mail address`);
  }
  return email;
}

export function checkNewPassword(password: string, field = 'password'): void {
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw new InvalidInputError(`${field}: at least ${MIN_PASSWORD_LENGTH} characters, please`);
  }
  if (password.length > MAX_PASSWORD_LENGTH) {
    throw new InvalidInputError(`${field}: at most ${MAX_PASSWORD_LENGTH} characters`);
  }
}
