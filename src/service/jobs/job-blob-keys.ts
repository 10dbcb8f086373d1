/** Where a job's blobs live: everything under this prefix is the job's, and goes when the job goes. */
export function jobBlobPrefix(jobId: string): string {
  return `jobs/${jobId}`;
}
