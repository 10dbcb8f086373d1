/**
 * The settings that decide whom the server believes (docs/security.md): which Host names may appear in
 * download links, which proxies may speak for a client's address, and the token that opens /metrics.
 */
import { ConfigError } from './config-error.js';
import type { Env } from './env-values.js';

/** Addresses that accept connections on every interface: not a name a client can use in a link. */
const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]']);
const HOST_ENTRY = /^(?:\[[0-9a-f:.]+\]|[a-z0-9.-]+|[0-9a-f:]+)(?::\d{1,5})?$/i;

/**
 * DECKFORGE_TRUSTED_HOSTS: comma-separated `name` or `name:port` entries (a bare name allows any port). Default:
 * the address the server listens on (unless it listens on every interface) and the loopback names.
 */
export function trustedHosts(env: Env, listenHost: string): string[] {
  const raw = env.DECKFORGE_TRUSTED_HOSTS?.trim();
  if (!raw) {
    const own = WILDCARD_HOSTS.has(listenHost) ? [] : [listenHost.toLowerCase()];
    return [...new Set([...own, 'localhost', '127.0.0.1', '::1'])];
  }
  return raw.split(',').map((entry) => {
    const host = entry.trim().toLowerCase();
    if (!HOST_ENTRY.test(host)) {
      throw new ConfigError(
        `DECKFORGE_TRUSTED_HOSTS must list host names or addresses, optionally with :port, got "${entry.trim()}"`,
      );
    }
    return host;
  });
}

/**
 * DECKFORGE_TRUST_PROXY: whose X-Forwarded-For / -Proto / -Host headers count. `false` (default): nobody's,
 * the connection's own address is the client; `true`: any proxy's (only when nothing else can reach the
 * port); a number: that many proxy hops; otherwise comma-separated addresses or CIDR ranges of the proxies.
 */
export function trustProxy(env: Env): boolean | number | string[] {
  const raw = env.DECKFORGE_TRUST_PROXY?.trim();
  if (!raw || ['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false;
  if (['true', 'yes', 'on'].includes(raw.toLowerCase())) return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  const entries = raw.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    if (!/^[0-9a-f:.]+(?:\/\d{1,3})?$/i.test(entry)) {
      throw new ConfigError(
        `DECKFORGE_TRUST_PROXY must be true, false, a hop count, or proxy addresses/CIDR ranges, got "${entry}"`,
      );
    }
  }
  return entries;
}

/** DECKFORGE_METRICS_TOKEN: when set, /metrics wants `Authorization: Bearer <token>`. */
export function metricsToken(env: Env): string | null {
  const raw = env.DECKFORGE_METRICS_TOKEN?.trim();
  if (!raw) return null;
  if (raw.length < 16) throw new ConfigError('DECKFORGE_METRICS_TOKEN must be at least 16 characters long');
  return raw;
}
