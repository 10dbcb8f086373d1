/**
 * How often the console sends mail for one address or one client network: nobody can use sign-up or password
 * reset to flood someone's mailbox, or the mail server, from one place.
 */
import { clientNetwork } from './client-network.js';
import { InvalidInputError, TooManyRequestsError } from '../errors.js';
import type { MailOrigin } from '../console-service.js';
import type { ServiceDeps } from '../service-deps.js';

export const MAILS_PER_ADDRESS_PER_MINUTE = 2;
export const MAILS_PER_NETWORK_PER_MINUTE = 10;

/** Throws TooManyRequestsError when `email` or the origin's network asked for too many mails lately. */
export async function throttleMail(deps: ServiceDeps, email: string, origin: MailOrigin): Promise<void> {
  const checks: [string, number][] = [[`mail:address:${email}`, MAILS_PER_ADDRESS_PER_MINUTE]];
  if (origin.clientAddress !== null) {
    checks.push([`mail:network:${clientNetwork(origin.clientAddress)}`, MAILS_PER_NETWORK_PER_MINUTE]);
  }
  for (const [key, limit] of checks) {
    const decision = await deps.rateLimiter.hit(key, limit);
    if (!decision.allowed) {
      throw new TooManyRequestsError(
        `too many e-mails asked for lately; try again in ${decision.retryAfterSeconds} s`,
        decision.retryAfterSeconds,
        'THROTTLED',
      );
    }
  }
}

/** The base of the links in a mail: DECKFORGE_PUBLIC_URL, else the request's trusted origin. */
export function mailLinkBase(deps: ServiceDeps, origin: MailOrigin): string {
  const base = deps.settings.console.publicUrl ?? origin.requestBase;
  if (base === null) {
    throw new InvalidInputError(
      'this server cannot build links for the Host this request came to: the operator sets DECKFORGE_PUBLIC_URL, ' +
        'or lists the name in DECKFORGE_TRUSTED_HOSTS',
    );
  }
  return base.replace(/\/+$/, '');
}
