/**
 * The console's token page: an account's live tokens (never the tokens themselves, only their ids and dates),
 * a new one (the same kind `token/create` issues) and revocation of one, refused on every endpoint at once
 * because authentication reads the store on every request.
 */
import type { Account, CreatedToken, TokenSummary } from '../deckforge-service.js';
import { InvalidInputError, NotFoundError } from '../errors.js';
import { mintToken } from './issue-token.js';
import type { ServiceDeps } from '../service-deps.js';

export async function listTokens(deps: ServiceDeps, account: Account): Promise<TokenSummary[]> {
  const tokens = await deps.tokens.listLive(account.id, deps.clock.now());
  return tokens.map((t) => ({
    id: t.id,
    name: t.name,
    createdAt: t.issuedAt,
    expiresAt: t.expiresAt,
    lastUsedAt: t.lastUsedAt,
  }));
}

export const TOKEN_NAME_MAX_LENGTH = 60;

/** A token's name as given in the console: trimmed, at most 60 characters, no control characters; "" is none. */
function tokenName(raw: unknown): string | null {
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== 'string') throw new InvalidInputError('name: a token name is text');
  const name = raw.trim();
  if (name === '') return null;
  if (name.length > TOKEN_NAME_MAX_LENGTH) {
    throw new InvalidInputError(`name: at most ${TOKEN_NAME_MAX_LENGTH} characters, got ${name.length}`);
  }
  if ([...name].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) {
    throw new InvalidInputError('name: no control characters (line breaks, tabs)');
  }
  return name;
}

export async function createToken(
  deps: ServiceDeps,
  account: Account,
  name?: unknown,
): Promise<CreatedToken> {
  const { id, token, expiresAt } = await mintToken(deps, account.id, tokenName(name));
  deps.logger.info({ accountId: account.id, tokenId: id }, 'token issued in the console');
  return { id, token, expiresAt: expiresAt.toISOString() };
}

export async function revokeToken(deps: ServiceDeps, account: Account, id: string): Promise<void> {
  if (!(await deps.tokens.revoke(account.id, id))) {
    throw new NotFoundError(`No live token with id ${id} on this account.`);
  }
  deps.logger.info({ accountId: account.id, tokenId: id }, 'token revoked');
}
