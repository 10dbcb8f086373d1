/**
 * The console's session cookie (console contract): `deckforge_console`, an opaque random id, `HttpOnly` (no
 * script reads it), `SameSite=Strict` (no other site's page sends it), `Path=/console` (the API never sees it),
 * and `Secure` when the public URL is https or the request came over https.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

export const SESSION_COOKIE = 'deckforge_console';

/** The cookie's value in the request, if any (the first one of that name, as browsers send the most specific first). */
export function sessionCookie(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (header === undefined) return undefined;
  for (const pair of header.split(';')) {
    const at = pair.indexOf('=');
    if (at < 0) continue;
    if (pair.slice(0, at).trim() === SESSION_COOKIE) return pair.slice(at + 1).trim();
  }
  return undefined;
}

export interface CookieSecurity {
  /** DECKFORGE_PUBLIC_URL, or null. */
  publicBaseUrl: string | null;
}

function secure(request: FastifyRequest, config: CookieSecurity): boolean {
  return config.publicBaseUrl?.startsWith('https:') === true || request.protocol === 'https';
}

export function setSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  config: CookieSecurity,
  sessionId: string,
  maxAge: number,
): void {
  const attributes = [
    `${SESSION_COOKIE}=${sessionId}`,
    'Path=/console',
    'HttpOnly',
    'SameSite=Strict',
    `Max-Age=${maxAge}`,
    ...(secure(request, config) ? ['Secure'] : []),
  ];
  reply.header('set-cookie', attributes.join('; '));
}

export function clearSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  config: CookieSecurity,
): void {
  const attributes = [
    `${SESSION_COOKIE}=`,
    'Path=/console',
    'HttpOnly',
    'SameSite=Strict',
    'Max-Age=0',
    ...(secure(request, config) ? ['Secure'] : []),
  ];
  reply.header('set-cookie', attributes.join('; '));
}
