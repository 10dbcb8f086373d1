/**
 * Idempotency-Key on both generation endpoints (docs/http-api.md "Retrying safely: `Idempotency-Key`";
 * modelled on Stripe's idempotency keys). Within 24 hours a key of an account stands for one request: the
 * same request again gets the first answer (the same job for create-async) and is charged once; another
 * request with the key is a 409 naming it. A synchronous deck is not kept, so repeating a synchronous request
 * is a 409 that says so. A request that fails gives its key back, so a retry can run it.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Account, GenerationRequest } from '../deckforge-service.js';
import { IdempotencyConflictError, InvalidInputError } from '../errors.js';
import type { IdempotencyEntry } from '../ports/index.js';
import type { ServiceDeps } from '../service-deps.js';

export const KEY_LIFETIME_MS = 24 * 3_600_000;
/** A claim this old without its job was made by a process that died before creating it: it may be taken over. */
const STALE_CLAIM_MS = 30_000;
const POLL_MS = 25;

const KEY_SYNTAX = /^[\x21-\x7e]{1,255}$/;

/** The header's value, checked: 1 to 255 visible ASCII characters. */
export function checkedKey(key: string | undefined): string | undefined {
  if (key === undefined) return undefined;
  if (!KEY_SYNTAX.test(key)) {
    throw new InvalidInputError(
      'Idempotency-Key: use 1 to 255 visible ASCII characters (a UUID is a good key)',
    );
  }
  return key;
}

/** What the request asks for, independent of how it was encoded (multipart boundaries differ between retries). */
function fingerprint(request: GenerationRequest): string {
  const hash = createHash('sha256');
  const jsonData = typeof request.jsonData === 'string' ? request.jsonData : JSON.stringify(request.jsonData);
  hash.update(`jsonData ${Buffer.byteLength(jsonData ?? '')}\n`).update(jsonData ?? '');
  hash.update(`\ncallback ${request.callback?.url ?? ''}\n`);
  // The same payload asked for as a PDF, or with slide images, is another request.
  const output = request.output;
  if (output && (output.format !== 'pptx' || output.previewWidth !== null)) {
    hash.update(`output ${output.format} ${output.previewWidth ?? ''}\n`);
  }
  for (const file of request.files) {
    hash.update(`\nfile ${file.name.length} ${file.name} ${file.bytes.byteLength}\n`).update(file.bytes);
  }
  return hash.digest('hex');
}

function differentRequest(key: string, holder: IdempotencyEntry): IdempotencyConflictError {
  return new IdempotencyConflictError(
    `Idempotency-Key "${key}" was used at ${holder.createdAt} for a different request ` +
      `(${holder.endpoint}, other payload or files); send a new key for a new request`,
  );
}

/** create-async with a key: the first request's job, or a new one when this request holds the key. */
export async function submitOnce(
  deps: ServiceDeps,
  account: Account,
  request: GenerationRequest & { idempotencyKey: string },
  submit: (jobId: string) => Promise<{ jobId: string; status: 'QUEUED' }>,
): Promise<{ jobId: string; status: 'QUEUED' }> {
  const key = request.idempotencyKey;
  const print = fingerprint(request);
  for (;;) {
    const jobId = randomUUID();
    const entry = newEntry(deps, account, key, 'create-async', print, jobId);
    const holder = await deps.idempotency.claim(entry, notBefore(deps));
    if (holder === null) return runHolding(deps, entry, () => submit(jobId));
    if (holder.endpoint !== 'create-async' || holder.fingerprint !== print || holder.jobId === null) {
      throw differentRequest(key, holder);
    }
    const outcome = await waitForJob(deps, { ...holder, jobId: holder.jobId });
    if (outcome === 'created') return { jobId: holder.jobId, status: 'QUEUED' };
    if (outcome === 'stale' && (await deps.idempotency.takeOver(entry, holder.claimId))) {
      return runHolding(deps, entry, () => submit(jobId));
    }
    // The key was given back (its request failed) or taken over by another retry: try again.
  }
}

/** generate with a key: runs when this request holds the key; a repeat cannot get the deck again. */
export async function generateOnce<T>(
  deps: ServiceDeps,
  account: Account,
  request: GenerationRequest & { idempotencyKey: string },
  generate: () => Promise<T>,
): Promise<T> {
  const key = request.idempotencyKey;
  const print = fingerprint(request);
  const entry = newEntry(deps, account, key, 'generate', print, null);
  const holder = await deps.idempotency.claim(entry, notBefore(deps));
  if (holder === null) return runHolding(deps, entry, generate);
  if (holder.endpoint !== 'generate' || holder.fingerprint !== print) throw differentRequest(key, holder);
  throw new IdempotencyConflictError(
    `Idempotency-Key "${key}": this request was already received at ${holder.createdAt} and charged; a ` +
      'synchronous deck is not kept, so it cannot be sent again. Use create-async to be able to fetch a deck ' +
      'again, or send a new key to generate it anew',
  );
}

function newEntry(
  deps: ServiceDeps,
  account: Account,
  key: string,
  endpoint: IdempotencyEntry['endpoint'],
  print: string,
  jobId: string | null,
): IdempotencyEntry {
  return {
    accountId: account.id,
    key,
    endpoint,
    fingerprint: print,
    jobId,
    claimId: jobId ?? randomUUID(),
    createdAt: deps.clock.now().toISOString(),
  };
}

const notBefore = (deps: ServiceDeps) => new Date(deps.clock.now().getTime() - KEY_LIFETIME_MS);

/** Runs the request that holds the key; a failure gives the key back, so that a retry is not refused. */
async function runHolding<T>(deps: ServiceDeps, entry: IdempotencyEntry, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    await deps.idempotency.release(entry.accountId, entry.key, entry.claimId);
    throw error;
  }
}

/** Waits for the key holder's job: created, the key given back or taken over, or the claim gone stale. */
async function waitForJob(
  deps: ServiceDeps,
  holder: IdempotencyEntry & { jobId: string },
): Promise<'created' | 'released' | 'stale'> {
  for (;;) {
    if ((await deps.jobs.get(holder.jobId)) !== null) return 'created';
    const current = await deps.idempotency.get(holder.accountId, holder.key);
    if (current?.claimId !== holder.claimId) return 'released';
    if (deps.clock.now().getTime() - Date.parse(holder.createdAt) > STALE_CLAIM_MS) return 'stale';
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
