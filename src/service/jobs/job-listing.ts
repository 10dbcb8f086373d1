/**
 * The console's jobs page: the account's recent jobs with what a user checks (state, slides, times, error,
 * warnings) and, while the result exists, the same signed download link the status endpoint gives.
 */
import type { Account, JobSummary, LinkBase } from '../deckforge-service.js';
import { accountJob, downloadLink } from './job-status.js';
import { warningCountOf } from './job-warnings.js';
import type { JobRecord } from '../ports/index.js';
import type { ServiceDeps } from '../service-deps.js';

/** How many jobs the listing shows: jobs are kept a day or so, so this is every job of all but heavy users. */
export const JOB_LISTING_LIMIT = 50;

async function summary(deps: ServiceDeps, job: JobRecord, baseUrl: LinkBase): Promise<JobSummary> {
  const final = job.state === 'SUCCEEDED' || job.state === 'FAILED';
  return {
    jobId: job.id,
    state: job.state,
    slideCount: job.slideCount,
    submittedAt: job.createdAt,
    finishedAt: final ? job.updatedAt : null,
    errorMessage: job.state === 'FAILED' ? job.errorMessage : null,
    warnings: job.warnings,
    warningCount: warningCountOf(job),
    downloadUrl: await downloadLink(deps, job, baseUrl),
    progress: job.state === 'PROCESSING' ? (job.progress ?? null) : null,
  };
}

export async function listJobs(
  deps: ServiceDeps,
  account: Account,
  baseUrl: LinkBase,
): Promise<JobSummary[]> {
  const now = deps.clock.now().getTime();
  const jobs = await deps.jobs.listByAccount(account.id, JOB_LISTING_LIMIT);
  // An expired job is gone for the status endpoint too (the sweeper deletes it soon): not listed.
  const live = jobs.filter((job) => Date.parse(job.expiresAt) > now);
  return Promise.all(live.map((job) => summary(deps, job, baseUrl)));
}

export async function jobSummary(
  deps: ServiceDeps,
  account: Account,
  jobId: string,
  baseUrl: LinkBase,
): Promise<JobSummary> {
  return summary(deps, await accountJob(deps, account, jobId), baseUrl);
}
