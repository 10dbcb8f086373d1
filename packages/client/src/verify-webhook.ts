/**
 * Checks a webhook Deckforge sent: `Deckforge-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256>` over
 * `<t>.<raw body>` with the account's webhook secret (the scheme of Stripe's signed events). Web Crypto, so it
 * runs in Node and in browsers and edge runtimes alike. Verify the raw body as received, before any parsing.
 */
import type { WebhookEvent } from './generated/api-types.js';

export class WebhookVerificationError extends Error {
  override readonly name: string = 'WebhookVerificationError';
}

const encoder = new TextEncoder();

function hex(bytes: ArrayBuffer): string {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Same length, every byte compared: how long it takes says nothing about where a guess went wrong. */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i += 1) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

function parseHeader(header: string): { timestamp: number; signatures: string[] } {
  let timestamp = NaN;
  const signatures: string[] = [];
  for (const item of header.split(',')) {
    const [key, value = ''] = item.trim().split('=', 2);
    if (key === 't' && /^\d+$/.test(value)) timestamp = Number(value);
    else if (key === 'v1') signatures.push(value.toLowerCase());
  }
  if (!Number.isFinite(timestamp) || signatures.length === 0) {
    throw new WebhookVerificationError('the Deckforge-Signature header has no t=… and v1=… entries');
  }
  return { timestamp, signatures };
}

/**
 * Resolves to the event (the job's status body plus `job_id`) when the signature matches and the timestamp is
 * within `toleranceSeconds` of now; rejects with WebhookVerificationError otherwise.
 */
export async function verifyWebhook(
  body: string | Uint8Array,
  header: string | null | undefined,
  secret: string,
  toleranceSeconds = 300,
): Promise<WebhookEvent> {
  if (!header) throw new WebhookVerificationError('the request has no Deckforge-Signature header');
  const { timestamp, signatures } = parseHeader(header);
  const age = Math.abs(Date.now() / 1000 - timestamp);
  if (age > toleranceSeconds) {
    throw new WebhookVerificationError(
      `the signature's timestamp is ${Math.round(age)} s away from now, beyond the ${toleranceSeconds} s tolerance`,
    );
  }
  const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
  const key = await crypto.subtle.importKey(
    'raw',
    encoder.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const expected = hex(await crypto.subtle.sign('HMAC', key, encoder.encode(`${timestamp}.${text}`)));
  if (!signatures.some((signature) => sameText(signature, expected))) {
    throw new WebhookVerificationError('the signature does not match the body and the secret');
  }
  return JSON.parse(text) as WebhookEvent;
}
