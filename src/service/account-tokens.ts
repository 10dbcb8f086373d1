/**
 * The console's token page: an account's live tokens (never the tokens themselves, only their ids and dates),
 * a new one (the same kind `token/create` issues) and revocation of one, refused on every endpoint at once
 * because authentication reads the store on every request.
 */
import type { Account, CreatedToken, TokenSummary } from './deckforge-service.js';
import { NotFoundError } from './errors.js';
import { mintToken } from './issue-token.js';
import type { ServiceDeps } from './service-deps.js';

export async function listTokens(deps: ServiceDeps, account: Account): Promise<TokenSummary[]> {
  const tokens = await deps.tokens.listLive(account.id, deps.clock.now());
  return tokens.map((t) => ({
    id: t.id,
    createdAt: t.issuedAt,
    expiresAt: t.expiresAt,
    lastUsedAt: t.lastUsedAt,
  }));
}

export async function createToken(deps: ServiceDeps, account: Account): Promise<CreatedToken> {
  const { id, token, expiresAt } = await mintToken(deps, account.id);
  deps.logger.info({ accountId: account.id, tokenId: id }, 'token issued in the console');
  return { id, token, expiresAt: expiresAt.toISOString() };
}

export async function revokeToken(deps: ServiceDeps, account: Account, id: string): Promise<void> {
  if (!(await deps.tokens.revoke(account.id, id))) {
    throw new NotFoundError(`No live token with id ${id} on this account.`);
  }
  deps.logger.info({ accountId: account.id, tokenId: id }, 'token revoked');
}
