/** Reading the console's small JSON bodies: each field a string, or a 400 (shape A) naming the field. */
import { InvalidInputError } from '../../service/errors.js';

/** A field that may be left out: its value as sent (the service checks it), undefined without a body. */
export function optionalField(body: unknown, name: string): unknown {
  return typeof body === 'object' && body !== null && !Array.isArray(body)
    ? (body as Record<string, unknown>)[name]
    : undefined;
}

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
