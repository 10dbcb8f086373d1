/**
 * Job records (state, outcome). The durable queue that feeds the consumer is a port of its own (job-queue.ts):
 * the two part ways with PostgreSQL rows and BullMQ.
 */
import type { Warning } from '../../engine/index.js';

/** Where a job stands; the job status answer names it the same way. */
export type JobState = 'QUEUED' | 'PROCESSING' | 'SUCCEEDED' | 'FAILED';

export interface JobRecord {
  id: string;
  accountId: string;
  state: JobState;
  /** ISO 8601. */
  createdAt: string;
  updatedAt: string;
  /** After this the job and its files are deleted and its id answers 404. */
  expiresAt: string;
  /** Blob key of the stored request (jsonData + uploaded files). */
  inputKey: string;
  /** The quota reservation this job holds until it ends. */
  reservationId: string | null;
  errorMessage: string | null;
  warnings: Warning[];
  /** Blob key and download name of the result, when SUCCEEDED. */
  resultKey: string | null;
  resultFileName: string | null;
  slideCount: number | null;
}

export interface JobOutcome {
  resultKey: string;
  resultFileName: string;
  slideCount: number;
  warnings: Warning[];
}

export interface JobStore {
  create(job: JobRecord): Promise<void>;
  get(id: string): Promise<JobRecord | null>;
  /** QUEUED → PROCESSING; false when the job is not QUEUED (gone, or already taken). */
  markProcessing(id: string, at: Date): Promise<boolean>;
  /** PROCESSING → QUEUED, for a retry after an interrupted attempt. */
  markQueued(id: string, at: Date): Promise<boolean>;
  markSucceeded(id: string, outcome: JobOutcome, at: Date): Promise<boolean>;
  markFailed(id: string, errorMessage: string, at: Date, warnings?: Warning[]): Promise<boolean>;
  countByState(): Promise<Record<JobState, number>>;
  /** The account's jobs, most recently submitted first, at most `limit` (the console's list; account deletion). */
  listByAccount(accountId: string, limit: number): Promise<JobRecord[]>;
  /** Jobs whose `expiresAt` is before `now`, oldest first, at most `limit`. */
  listExpired(now: Date, limit: number): Promise<JobRecord[]>;
  delete(id: string): Promise<boolean>;
}
