/**
 * The consumer's work on one claimed job: QUEUED → PROCESSING → SUCCEEDED | FAILED. Template and payload
 * problems (EngineError), refused or failing URLs (FetchError) end as FAILED with a message the user can act on;
 * anything else ends as FAILED with a pointer to the server logs. Either way the job leaves the queue and a
 * failed job gives its slide reservation back.
 */
import { performance } from 'node:perf_hooks';
import { EngineError, parsePayload } from '../engine/index.js';
import { ServiceError } from './errors.js';
import { fetchRemoteFiles, type PreparedRequest } from './generation-input.js';
import { decodeJobInput } from './job-input-codec.js';
import { FetchError, type ClaimedJob, type JobRecord } from './ports/index.js';
import type { ServiceDeps } from './service-deps.js';
import { jobBlobPrefix } from './submit-job.js';

export const INTERRUPTED_MESSAGE = 'the server stopped while this job was running; please submit it again';

export async function runJob(deps: ServiceDeps, claimed: ClaimedJob): Promise<void> {
  const job = await deps.jobs.get(claimed.jobId);
  if (!job || job.state === 'SUCCEEDED' || job.state === 'FAILED') {
    await deps.queue.ack(claimed.jobId); // deleted by retention, or finished before a crash
    return;
  }
  const log = { jobId: job.id, attempt: claimed.attempt };
  if (job.state === 'QUEUED') await deps.jobs.markProcessing(job.id, deps.clock.now());
  deps.logger.info(log, 'job processing');
  try {
    await succeed(deps, job);
    deps.logger.info(log, 'job succeeded');
  } catch (error) {
    const message = userMessage(error, job.id);
    if (message.internal) deps.logger.error({ ...log, err: error }, 'job failed with an internal error');
    else deps.logger.info({ ...log, reason: message.text }, 'job failed');
    await deps.jobs.markFailed(job.id, message.text, deps.clock.now());
    if (job.reservationId) await deps.ledger.release(job.reservationId);
  } finally {
    await deps.queue.ack(job.id);
  }
}

async function succeed(deps: ServiceDeps, job: JobRecord): Promise<void> {
  const blob = await deps.blobs.get(job.inputKey);
  if (!blob) throw new Error(`stored input of job ${job.id} is missing`);
  const input = decodeJobInput(blob);
  const { request, warnings } = parsePayload(input.payload);
  const prepared: PreparedRequest = {
    payload: input.payload,
    request,
    warnings,
    files: input.files,
    slideCount: request.slides.length,
  };
  await fetchRemoteFiles(deps, prepared);
  const started = performance.now();
  const result = await deps.pool.generate({ payload: prepared.payload, files: prepared.files });
  deps.counters.decks += 1;
  deps.counters.slides += result.slideCount;
  deps.counters.seconds += (performance.now() - started) / 1000;
  const resultKey = `${jobBlobPrefix(job.id)}/result.pptx`;
  await deps.blobs.put(resultKey, result.bytes);
  // Settle (written now, not at the next flush) before marking: a crash in between retries the job, and
  // settling twice is a no-op.
  if (job.reservationId) {
    deps.usage.settle(job.reservationId, result.slideCount);
    await deps.usage.flush();
  }
  const outcome = {
    resultKey,
    resultFileName: result.fileName,
    slideCount: result.slideCount,
    warnings: result.warnings,
  };
  if (!(await deps.jobs.markSucceeded(job.id, outcome, deps.clock.now()))) {
    // The job vanished (retention) while running: nothing to report to.
    await deps.blobs.deletePrefix(jobBlobPrefix(job.id));
  }
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
