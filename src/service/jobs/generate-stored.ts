/**
 * `generate_deck` (docs/mcp.md): a deck within the synchronous limit is generated now, exactly as
 * `POST /v1.0/generator/create` generates it (generate-now.ts: the same quota, gate and limits), and kept as a
 * finished job, so that it has an id (`get_job`, `render_preview`) and a pre-signed link like any job's result;
 * retention deletes it with the jobs. A deck over the synchronous limit is submitted as a job instead.
 */
import { randomUUID } from 'node:crypto';
import type { Account, GenerationRequest, LinkBase, StoredDeck } from '../deckforge-service.js';
import type { AccountGate } from '../generation/account-gate.js';
import { generateNow } from '../generation/generate-now.js';
import { OverSyncLimitError } from '../generation/generation-input.js';
import type { JobRecord } from '../ports/index.js';
import type { ServiceDeps } from '../service-deps.js';
import { jobBlobPrefix } from './job-blob-keys.js';
import { downloadLink } from './job-status.js';
import { submitJob } from './submit-job.js';

export async function generateStored(
  deps: ServiceDeps,
  account: Account,
  request: GenerationRequest,
  gate: AccountGate,
  baseUrl: LinkBase,
): Promise<StoredDeck> {
  let deck;
  try {
    deck = await generateNow(deps, account, request, gate);
  } catch (error) {
    if (!(error instanceof OverSyncLimitError)) throw error;
    const { jobId } = await submitJob(deps, account, request);
    return { jobId, status: 'QUEUED', fileUrl: null, slideCount: null, warnings: [] };
  }
  const jobId = randomUUID();
  const resultKey = `${jobBlobPrefix(jobId)}/result.pptx`;
  const now = deps.clock.now().toISOString();
  const job: JobRecord = {
    id: jobId,
    accountId: account.id,
    state: 'SUCCEEDED',
    createdAt: now,
    updatedAt: now,
    expiresAt: new Date(
      deps.clock.now().getTime() + deps.settings.jobRetentionHours * 3_600_000,
    ).toISOString(),
    inputKey: `${jobBlobPrefix(jobId)}/input.bin`, // none is stored: the deck was made at once
    reservationId: null,
    errorMessage: null,
    warnings: deck.warnings,
    resultKey,
    resultFileName: deck.fileName,
    slideCount: deck.slideCount,
  };
  try {
    const held = deck.content.held;
    if (held && deps.jobs.keepsResults && deps.jobs.createWithResult) {
      // A small deck is kept beside its job, in one write, rather than as a file of its own (docs/operations.md,
      // "The data directory"); downloads and previews find it there under the same key (job-result.ts).
      await deps.jobs.createWithResult(job, held);
    } else {
      await deps.blobs.put(resultKey, held ?? (await deck.content.bytes()));
      await deps.jobs.create(job);
    }
  } catch (error) {
    await deps.blobs.deletePrefix(jobBlobPrefix(jobId)).catch(() => undefined);
    throw error;
  } finally {
    await deck.content.discard();
  }
  return {
    jobId,
    status: 'SUCCEEDED',
    fileUrl: await downloadLink(deps, job, baseUrl),
    slideCount: deck.slideCount,
    warnings: deck.warnings,
  };
}
