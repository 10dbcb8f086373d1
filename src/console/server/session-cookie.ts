/**
 * The console's session cookie (docs/console.md, "Accounts and sessions"): an opaque random id, `HttpOnly` (no
 * script reads it), `SameSite=Strict` (no other site's page sends it).
 *
 * Served over https (the public URL is https, or the request came over https through a trusted proxy) it is
 * `__Host-deckforge_console` with `Secure` and `Path=/` and no `Domain`: a browser accepts a cookie of that name only
 * from this very host over https, so a page on a sibling host cannot plant one (cookie tossing). The unprefixed name
 * is then no session at all. Over plain http (development) browsers refuse `__Host-` cookies, so the cookie is
 * `deckforge_console` with `Path=/console`.
 *
 * A request carrying two session cookies (one name twice, or both names) is refused: which of them the browser meant
 * cannot be told, and taking either would let a tossed cookie win.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { InvalidInputError } from '../../service/errors.js';

export const HTTPS_SESSION_COOKIE = '__Host-deckforge_console';
export const HTTP_SESSION_COOKIE = 'deckforge_console';

export interface CookieSecurity {
  /** DECKFORGE_PUBLIC_URL, or null. */
  publicBaseUrl: string | null;
}

function overHttps(request: FastifyRequest, config: CookieSecurity): boolean {
  return config.publicBaseUrl?.startsWith('https:') === true || request.protocol === 'https';
}

/**
 * The session id of the request's cookie, if any: the prefixed cookie over https, the unprefixed one over http.
 * Two session cookies of either name are an InvalidInputError (400).
 */
export function sessionCookie(request: FastifyRequest, config: CookieSecurity): string | undefined {
  const header = request.headers.cookie;
  if (header === undefined) return undefined;
  const sent: { name: string; value: string }[] = [];
  for (const pair of header.split(';')) {
    const at = pair.indexOf('=');
    if (at < 0) continue;
    const name = pair.slice(0, at).trim();
    if (name === HTTPS_SESSION_COOKIE || name === HTTP_SESSION_COOKIE)
      sent.push({ name, value: pair.slice(at + 1).trim() });
  }
  if (sent.length > 1) {
    throw new InvalidInputError(
      `this request carries ${sent.length} console session cookies (${sent.map((cookie) => cookie.name).join(', ')}), ` +
        'and which one is yours cannot be told: clear the cookies of this site in your browser, then sign in again',
    );
  }
  const name = overHttps(request, config) ? HTTPS_SESSION_COOKIE : HTTP_SESSION_COOKIE;
  return sent.find((cookie) => cookie.name === name)?.value;
}

/** One Set-Cookie line: the prefixed cookie is always `Secure`; the unprefixed one when sent over https. */
function cookieLine(prefixed: boolean, value: string, maxAge: number, https: boolean): string {
  return [
    `${prefixed ? HTTPS_SESSION_COOKIE : HTTP_SESSION_COOKIE}=${value}`,
    prefixed ? 'Path=/' : 'Path=/console',
    'HttpOnly',
    'SameSite=Strict',
    `Max-Age=${maxAge}`,
    ...(prefixed || https ? ['Secure'] : []),
  ].join('; ');
}

/**
 * Sets the session cookie of this request's scheme. Over https it also expires an unprefixed cookie this host set
 * before (a console first served over http), which would otherwise make every later request carry two.
 */
export function setSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  config: CookieSecurity,
  sessionId: string,
  maxAge: number,
): void {
  const https = overHttps(request, config);
  reply.header('set-cookie', [
    cookieLine(https, sessionId, maxAge, https),
    ...(https ? [cookieLine(false, '', 0, https)] : []),
  ]);
}

/** Expires both session cookies, this request's scheme's first. */
export function clearSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  config: CookieSecurity,
): void {
  const https = overHttps(request, config);
  reply.header('set-cookie', [cookieLine(https, '', 0, https), cookieLine(!https, '', 0, https)]);
}
