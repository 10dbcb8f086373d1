import type { JobRecord } from '../ports/index.js';

/**
 * Warnings a job's record keeps, and so its status, its entry in the job listing and its webhook body carry
 * (docs/http-api.md, Asynchronous); `warning_count` beside them says how many there were. A deck of 200 000
 * warnings once made every poll 29.6 MB.
 */
export const MAX_JOB_WARNINGS = 300;

/** How many warnings the job had in all. */
export function warningCountOf(job: JobRecord): number {
  return job.warningCount ?? job.warnings.length;
}
