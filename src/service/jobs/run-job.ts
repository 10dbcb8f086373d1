/**
 * The consumer's work on one claimed job: QUEUED → PROCESSING → SUCCEEDED | FAILED. Template and payload
 * problems (EngineError), refused or failing URLs (FetchError) end as FAILED with a message the user can act on;
 * anything else ends as FAILED with a pointer to the server logs. Either way the job leaves the queue and a
 * failed job gives its slide reservation back. Continuation slides of long tables are reserved once the deck is
 * built; when they do not fit the allowance the job is FAILED with the reason. The one exception is a shutdown
 * that could not wait for the job (the pool was closed under it): the job keeps its claim, and the next start
 * runs it again, as after a crash.
 *
 * The URLs are fetched first, within the job's fetch deadline and byte allowance and to disk, and only then
 * does the job wait for a generation slot (job-consumer.ts): a slow picture server holds no thread. A picture
 * not fetched by the deadline fails the job with that reason, and its slides are given back.
 */
import { rm } from 'node:fs/promises';
import { countRequestedSlides, EngineError, type GenerateSummary } from '../../engine/index.js';
import { ServiceError } from '../errors.js';
import { scratchFile } from '../generation/deck-content.js';
import type { FairSlots } from './fair-slots.js';
import { fetchRequestUrls, generationTask, type PreparedRequest } from '../generation/generation-input.js';
import { decodeJobInput } from './job-input-codec.js';
import {
  FetchError,
  GenerationPoolClosedError,
  type AccountRecord,
  type ClaimedJob,
  type JobRecord,
} from '../ports/index.js';
import { storeJobOutputs, type StoredResult } from './job-outputs.js';
import { jobProgressWriter } from './job-progress.js';
import { runGeneration } from '../generation/run-generation.js';
import type { ServiceDeps } from '../service-deps.js';
import { reserveContinuationSlides } from '../usage/slide-quota.js';
import { MAX_JOB_WARNINGS } from './job-warnings.js';
import { jobBlobPrefix } from './submit-job.js';

export const INTERRUPTED_MESSAGE = 'the server stopped while this job was running; please submit it again';

/** What the consumer lends each job: the generation slots, and the signal that the process is being stopped. */
export interface JobRunContext {
  slots: FairSlots;
  halt: AbortSignal;
}

export async function runJob(deps: ServiceDeps, claimed: ClaimedJob, context: JobRunContext): Promise<void> {
  const job = await deps.jobs.get(claimed.jobId);
  if (!job || job.state === 'SUCCEEDED' || job.state === 'FAILED') {
    await deps.queue.ack(claimed.jobId); // deleted by retention, or finished before a crash
    return;
  }
  const log = { jobId: job.id, attempt: claimed.attempt };
  if (job.state === 'QUEUED') await deps.jobs.markProcessing(job.id, deps.clock.now());
  deps.logger.info(log, 'job processing');
  let interrupted = false;
  try {
    await succeed(deps, job, context);
    deps.logger.info(log, 'job succeeded');
  } catch (error) {
    // Stopped by a shutdown (threads closed, downloads cut): not the job's fault.
    if (error instanceof GenerationPoolClosedError || context.halt.aborted) {
      interrupted = true;
      deps.logger.warn(log, 'job interrupted by shutdown; it runs again at the next start');
      return;
    }
    const message = userMessage(error, job.id);
    if (message.internal) deps.logger.error({ ...log, err: error }, 'job failed with an internal error');
    else deps.logger.info({ ...log, reason: message.text }, 'job failed');
    await deps.jobs.markFailed(job.id, message.text, deps.clock.now());
    if (job.reservationId) await deps.ledger.release(job.reservationId);
  } finally {
    // An interrupted job keeps its claim: it is recovered like a crashed process's.
    if (!interrupted) await deps.queue.ack(job.id);
    if (!interrupted) deps.jobEvents.ended(job.id);
  }
}

async function succeed(deps: ServiceDeps, job: JobRecord, { slots, halt }: JobRunContext): Promise<void> {
  const blob = await deps.blobs.get(job.inputKey);
  if (!blob) throw new Error(`stored input of job ${job.id} is missing`);
  const input = decodeJobInput(blob);
  // The stored text is parsed on a generation thread, as at submission (docs/security.md, "Nothing of one
  // request blocks the others").
  const reading = await deps.pool.readPayload(input.source);
  if (!reading.accepted) throw reading.refusal;
  const { facts } = reading;
  const prepared: PreparedRequest = {
    source: input.source,
    facts,
    warnings: facts.warnings,
    files: input.files,
    slideCount: countRequestedSlides(facts, input.files), // as counted when the job was submitted
  };
  const fetched = await fetchRequestUrls(deps, prepared, halt);
  // The deck streams into a scratch file as it is built, and from there into the store: never whole in memory.
  const file = scratchFile(deps.settings.scratchDir);
  let result: GenerateSummary;
  let stored: StoredResult;
  const giveBack = await slots.acquire(job.accountId);
  try {
    if (halt.aborted) throw new GenerationPoolClosedError('the job consumer is stopping');
    const progress = jobProgressWriter(deps, job.id);
    progress.slides(0, prepared.slideCount);
    const task = {
      ...generationTask(deps, prepared, fetched, deps.settings.limits.maxSlidesPerRequest),
      onProgress: (done: number, total: number) => progress.slides(done, total),
    };
    result = await runGeneration(deps, task, file);
    await progress.settled();
    giveBack();
    // The deck (and its PDF and slide images, when asked for: job-outputs.ts) into the store.
    stored = await storeJobOutputs(deps, job, file, result, halt, (pages) => progress.pages(pages));
    await progress.settled();
  } finally {
    giveBack();
    await rm(file, { force: true });
    await fetched.discard();
  }
  // Continuation slides of long tables count too; when they do not fit the allowance the job fails (and its
  // reservation is released) rather than going over it.
  const extra = result.slideCount - prepared.slideCount;
  const extraId =
    job.reservationId && extra > 0
      ? await reserveContinuationSlides(deps, await ownerOf(deps, job), extra, prepared.slideCount)
      : null;
  // Settle (written now, not at the next flush) before marking: a crash in between retries the job, and
  // settling twice is a no-op.
  if (job.reservationId) {
    deps.usage.settle(job.reservationId, Math.min(result.slideCount, prepared.slideCount), deps.clock.now());
    if (extraId) deps.usage.settle(extraId, extra, deps.clock.now());
    await deps.usage.flush();
  }
  const outcome = {
    resultKey: stored.resultKey,
    resultFileName: stored.resultFileName,
    slideCount: result.slideCount,
    // The record keeps the first warnings and their count: every poll and webhook reads it (job-status.ts).
    warnings: stored.warnings.slice(0, MAX_JOB_WARNINGS),
    warningCount: stored.warnings.length,
  };
  if (!(await deps.jobs.markSucceeded(job.id, outcome, deps.clock.now()))) {
    // The job vanished (retention) while running: nothing to report to.
    await deps.blobs.deletePrefix(jobBlobPrefix(job.id));
  }
}

async function ownerOf(deps: ServiceDeps, job: JobRecord): Promise<AccountRecord> {
  const owner = await deps.accounts.findById(job.accountId);
  if (!owner) throw new Error(`the account of job ${job.id} is missing`);
  return owner;
}

function userMessage(error: unknown, jobId: string): { text: string; internal: boolean } {
  if (error instanceof EngineError || error instanceof FetchError || error instanceof ServiceError) {
    return { text: error.message, internal: false };
  }
  return {
    text: `an internal error occurred while generating the presentation; see the server logs (job ${jobId})`,
    internal: true,
  };
}
