/**
 * Disabling and deleting an account (`deckforge accounts disable|enable|delete`). Disabled: sign-in and token
 * creation are refused, its tokens are refused at once (issue-token.ts reads the account on every request) and
 * its console sessions end. Deleted: it is disabled first, so nothing new starts while its jobs (with their
 * stored inputs and results), tokens, sessions, links, usage, idempotency keys, webhook secret and stored
 * templates (records and bytes) go; then the account itself.
 */
import { deleteJob } from '../jobs/job-status.js';
import { forgetAccountTemplates } from '../templates/template-queries.js';
import type {
  AccountRecord,
  AccountStore,
  BlobStore,
  Clock,
  IdempotencyKeys,
  JobQueue,
  JobStore,
  OneTimeTokenStore,
  SessionStore,
  TemplateStore,
  TokenStore,
  UsageLedger,
  WebhookStore,
} from '../ports/index.js';

export interface AccountRemovalDeps {
  accounts: AccountStore;
  tokens: TokenStore;
  sessions: SessionStore;
  oneTimeTokens: OneTimeTokenStore;
  jobs: JobStore;
  queue: JobQueue;
  ledger: UsageLedger;
  blobs: BlobStore;
  webhooks: WebhookStore;
  idempotency: IdempotencyKeys;
  templates: TemplateStore;
  clock: Clock;
}

export async function disableAccount(
  deps: Pick<AccountRemovalDeps, 'accounts' | 'sessions' | 'clock'>,
  record: AccountRecord,
): Promise<{ endedSessions: number }> {
  await deps.accounts.setDisabled(record.id, record.disabledAt ?? deps.clock.now().toISOString());
  return { endedSessions: await deps.sessions.deleteForAccount(record.id) };
}

export async function deleteAccount(
  deps: AccountRemovalDeps,
  record: AccountRecord,
): Promise<{ deletedJobs: number }> {
  await disableAccount(deps, record);
  let deletedJobs = 0;
  for (;;) {
    const jobs = await deps.jobs.listByAccount(record.id, 100);
    for (const job of jobs) await deleteJob(deps, job);
    deletedJobs += jobs.length;
    if (jobs.length < 100) break;
  }
  await deps.tokens.forgetAccount(record.id);
  await deps.sessions.deleteForAccount(record.id);
  await deps.oneTimeTokens.forgetAccount(record.id);
  await deps.ledger.forgetAccount(record.id);
  await deps.idempotency.forgetAccount(record.id);
  await deps.webhooks.forgetAccount(record.id);
  await forgetAccountTemplates(deps, record.id);
  await deps.accounts.delete(record.id);
  return { deletedJobs };
}
