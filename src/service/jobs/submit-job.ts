/**
 * `POST /v2.0/generator/create-async`: validate (malformed jsonData is a 400 now, not a FAILED job later),
 * reserve the slides, store the request, enqueue. Template fetching and generation happen in the consumer
 * (run-job.ts).
 */
import { randomUUID } from 'node:crypto';
import type { Account, GenerationRequest } from '../deckforge-service.js';
import { submitOnce } from '../generation/idempotency.js';
import { jobBlobPrefix } from './job-blob-keys.js';
import { recordRequestedOutputs } from './job-outputs.js';
import { DECK_ONLY, needsRenderer } from '../generation/output-format.js';
import { requireRenderer } from '../generation/render-deck.js';
import { encodeJobInput } from './job-input-codec.js';
import type { ServiceDeps } from '../service-deps.js';
import { prepareWithStoredTemplates } from '../generation/stored-template-resolution.js';
import { reserveSlides } from '../usage/slide-quota.js';
import { checkCallback, createDelivery } from './webhook-delivery.js';

export { jobBlobPrefix };

/** submitJob, run once per Idempotency-Key when the request carries one (generation/idempotency.ts). */
export function submitJobOnce(
  deps: ServiceDeps,
  account: Account,
  request: GenerationRequest,
): Promise<{ jobId: string; status: 'QUEUED' }> {
  const { idempotencyKey } = request;
  if (idempotencyKey === undefined) return submitJob(deps, account, request);
  return submitOnce(deps, account, { ...request, idempotencyKey }, (jobId) =>
    submitJob(deps, account, request, jobId),
  );
}

export async function submitJob(
  deps: ServiceDeps,
  account: Account,
  input: GenerationRequest,
  /** Chosen beforehand when an Idempotency-Key names the job before it exists (idempotency.ts). */
  jobId: string = randomUUID(),
): Promise<{ jobId: string; status: 'QUEUED' }> {
  const prepared = await prepareWithStoredTemplates(deps, account, input, 'async');
  const output = input.output ?? DECK_ONLY;
  // A server that cannot render says so now, before any slide is reserved, rather than failing the job later.
  if (needsRenderer(output)) await requireRenderer(deps);
  if (input.callback) await checkCallback(deps, account, input.callback.url);
  const reservationId = await reserveSlides(deps, account, prepared.slideCount, jobId);
  const inputKey = `${jobBlobPrefix(jobId)}/input.bin`;
  try {
    await deps.blobs.put(inputKey, encodeJobInput({ source: prepared.source, files: prepared.files }));
    await recordRequestedOutputs(deps, jobId, output);
    const now = deps.clock.now();
    await deps.jobs.create({
      id: jobId,
      accountId: account.id,
      state: 'QUEUED',
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + deps.settings.jobRetentionHours * 3_600_000).toISOString(),
      inputKey,
      reservationId,
      errorMessage: null,
      warnings: [],
      resultKey: null,
      resultFileName: null,
      slideCount: null,
    });
    if (input.callback) await createDelivery(deps, account, jobId, input.callback);
    await deps.queue.enqueue(jobId);
  } catch (error) {
    await deps.ledger.release(reservationId);
    await deps.webhooks.deleteDelivery(jobId).catch(() => undefined);
    await deps.jobs.delete(jobId).catch(() => false);
    await deps.blobs.deletePrefix(jobBlobPrefix(jobId)).catch(() => undefined);
    throw error;
  }
  deps.logger.info({ jobId, accountId: account.id, slides: prepared.slideCount }, 'job queued');
  deps.jobEvents.queued(jobId);
  return { jobId, status: 'QUEUED' };
}
