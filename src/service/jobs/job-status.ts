/**
 * A job's status (with a fresh 15-minute link on every call for a succeeded job) and its download (opening a
 * signed link; docs/http-api.md "Asynchronous: `POST /v2.0/generator/create-async`, then poll"). Another
 * account's job and an expired job are answered exactly like an unknown id.
 */
import type { Account, Download, JobStatus, LinkBase } from '../deckforge-service.js';
import { ForbiddenDownloadError, NotFoundError } from '../errors.js';
import type { JobRecord } from '../ports/index.js';
import { DOWNLOAD_LINK_VALIDITY_MS, type ServiceDeps } from '../service-deps.js';
import { outputLinks } from './job-outputs.js';
import { jobFileContent } from './job-result.js';
import { warningCountOf } from './job-warnings.js';
import { jobBlobPrefix } from './submit-job.js';
import { deliveryView } from './webhook-delivery.js';

function notFound(deps: ServiceDeps, jobId: string): NotFoundError {
  return new NotFoundError(
    `No job with id ${jobId}, or the job has expired (jobs are kept ${deps.settings.jobRetentionHours} hours).`,
  );
}

/** Deletes an expired job and its files now rather than at the next sweep. */
export async function deleteJob(
  deps: Pick<ServiceDeps, 'queue' | 'ledger' | 'blobs' | 'webhooks' | 'jobs'>,
  job: JobRecord,
): Promise<void> {
  await deps.queue.remove(job.id);
  if (job.reservationId && (job.state === 'QUEUED' || job.state === 'PROCESSING')) {
    await deps.ledger.release(job.reservationId);
  }
  await deps.blobs.deletePrefix(jobBlobPrefix(job.id));
  await deps.webhooks.deleteDelivery(job.id);
  await deps.jobs.delete(job.id);
}

async function liveJob(deps: ServiceDeps, jobId: string): Promise<JobRecord | null> {
  const job = await deps.jobs.get(jobId);
  if (!job) return null;
  if (new Date(job.expiresAt).getTime() <= deps.clock.now().getTime()) {
    await deleteJob(deps, job);
    deps.logger.info({ jobId }, 'expired job deleted');
    return null;
  }
  return job;
}

/** The account's live job, or NotFoundError exactly as for an unknown id. */
export async function accountJob(deps: ServiceDeps, account: Account, jobId: string): Promise<JobRecord> {
  const job = await liveJob(deps, jobId);
  if (!job || job.accountId !== account.id) throw notFound(deps, jobId);
  return job;
}

/** A fresh 15-minute signed link to a succeeded job's deck; null while there is no result. */
export async function downloadLink(
  deps: ServiceDeps,
  job: JobRecord,
  baseUrl: LinkBase,
): Promise<string | null> {
  if (job.state !== 'SUCCEEDED' || !job.resultKey || !job.resultFileName) return null;
  return deps.blobs.signedUrl({
    key: job.resultKey,
    fileName: job.resultFileName,
    baseUrl: typeof baseUrl === 'string' ? baseUrl : baseUrl(),
    expiresAt: new Date(deps.clock.now().getTime() + DOWNLOAD_LINK_VALIDITY_MS),
  });
}

export async function jobStatus(
  deps: ServiceDeps,
  account: Account,
  jobId: string,
  baseUrl: LinkBase,
): Promise<JobStatus> {
  const job = await accountJob(deps, account, jobId);
  const fileUrl = await downloadLink(deps, job, baseUrl);
  const delivery = await deps.webhooks.getDelivery(job.id);
  const links = await outputLinks(deps, job.id, fileUrl !== null, baseUrl);
  return {
    status: job.state,
    errorMessage: job.state === 'FAILED' ? job.errorMessage : null,
    fileUrl,
    ...links,
    warnings: job.warnings,
    warningCount: warningCountOf(job),
    progress: job.state === 'PROCESSING' ? (job.progress ?? null) : null,
    ...(delivery ? { webhook: deliveryView(delivery) } : {}),
  };
}

export async function openDownload(deps: ServiceDeps, signedPath: string): Promise<Download> {
  const link = await deps.blobs.verifySignedPath(signedPath, deps.clock.now());
  if (!link) {
    throw new ForbiddenDownloadError(
      'The download link is invalid or has expired (links are valid 15 minutes): call the job status endpoint for a fresh link.',
    );
  }
  const jobId = /^jobs\/([^/]+)\//.exec(link.key)?.[1];
  const job = jobId ? await liveJob(deps, jobId) : null;
  const content = job ? await jobFileContent(deps, job, link.key) : null;
  if (!content) throw new NotFoundError('The file no longer exists: its job has expired.');
  return { content, fileName: link.fileName };
}
