/** Reading the console's small JSON bodies: each field a string, or a 400 (shape A) naming the field. */
import { InvalidInputError } from '../service/errors.js';

export function stringField(body: unknown, name: string): string {
  const value =
    typeof body === 'object' && body !== null && !Array.isArray(body)
      ? (body as Record<string, unknown>)[name]
      : undefined;
  if (typeof value !== 'string') {
    throw new InvalidInputError(`${name}: required, as a string in a JSON body`);
  }
  return value;
}
