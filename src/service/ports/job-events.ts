/**
 * What the service tells about a job's life, for the parts that act on it at once rather than at their next
 * poll: the in-process consumer starts a job queued here, the webhook dispatcher sends a job's end. The adapter
 * is given at construction, so no part of the service is reached through a hook set afterwards.
 */
export interface JobEvents {
  /** A job of this process was queued (after it is stored and enqueued). */
  queued(jobId: string): void;
  /** A job is final (SUCCEEDED or FAILED), after it is recorded. */
  ended(jobId: string): void;
}
