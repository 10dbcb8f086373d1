/**
 * The base URL that download links are built on (docs/http-api.md, "Asynchronous: `POST
 * /v2.0/generator/create-async`, then poll"): the API's job status and webhooks, and the console's job list.
 */
import type { FastifyRequest } from 'fastify';
import { InvalidInputError } from '../service/errors.js';
import type { HttpConfig } from './http-config.js';

/** A Host header value we are willing to echo into a link: a name or bracketed IPv6 address, and a port. */
const HOST_HEADER = /^([a-z0-9.-]+|\[[0-9a-f:.]+\])(?::(\d{1,5}))?$/i;

interface HostName {
  name: string;
  port: string | null;
}

/** `name`, `name:port`, `[v6]`, `[v6]:port` or a bare IPv6 address (no port), lower-cased, brackets dropped. */
function parseHostEntry(entry: string): HostName {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed) return { name: (bracketed[1] ?? '').toLowerCase(), port: bracketed[2] ?? null };
  const colon = entry.indexOf(':');
  if (colon < 0 || entry.indexOf(':', colon + 1) >= 0) return { name: entry.toLowerCase(), port: null };
  return { name: entry.slice(0, colon).toLowerCase(), port: entry.slice(colon + 1) };
}

/** Whether a Host header value names an entry of DECKFORGE_TRUSTED_HOSTS (a bare entry allows any port). */
export function isTrustedHost(trusted: readonly string[], host: string): boolean {
  if (!HOST_HEADER.test(host)) return false;
  const asked = parseHostEntry(host);
  return trusted.some((entry) => {
    const allowed = parseHostEntry(entry);
    return allowed.name === asked.name && (allowed.port === null || allowed.port === asked.port);
  });
}

/**
 * The base of a download link: DECKFORGE_PUBLIC_URL when set; otherwise the request's own origin, but only
 * when its Host is one the operator trusts, so a forged Host header cannot put another domain into `file_url`.
 */
export function linkBase(request: FastifyRequest, config: HttpConfig): () => string {
  return () => {
    if (config.publicBaseUrl !== null) return config.publicBaseUrl.replace(/\/+$/, '');
    if (!isTrustedHost(config.trustedHosts, request.host)) {
      throw new InvalidInputError(
        `the Host header "${request.host}" is not a name this server builds download links for: the operator ` +
          'sets DECKFORGE_PUBLIC_URL, or lists the name in DECKFORGE_TRUSTED_HOSTS',
      );
    }
    return `${request.protocol}://${request.host}`;
  };
}

/** The link base for a webhook event of this request's job; null when the Host is not one links are made for. */
export function trustedLinkBase(request: FastifyRequest, config: HttpConfig): string | null {
  try {
    return linkBase(request, config)();
  } catch {
    return null;
  }
}
