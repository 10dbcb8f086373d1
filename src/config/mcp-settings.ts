/**
 * `deckforge mcp --url`'s token (docs/mcp.md, "On your machine"): DECKFORGE_TOKEN, a bearer token of the server
 * named by --url, read here like every other setting. A file of its own so the command reads nothing else.
 */
import { ConfigError } from './config-error.js';
import type { Env } from './env-values.js';

export function loadMcpToken(env: Env = process.env): string {
  const token = env['DECKFORGE_TOKEN']?.trim();
  if (!token) {
    throw new ConfigError(
      'DECKFORGE_TOKEN is not set: give a bearer token of that server (POST /v1.0/token/create, or the console)',
    );
  }
  return token;
}
