/**
 * Job records (state, outcome). The durable queue that feeds the consumer is a port of its own (job-queue.ts):
 * the two part ways with PostgreSQL rows and BullMQ.
 */
import type { Warning } from '../../engine/index.js';

/** Where a job stands; the job status answer names it the same way. */
export type JobState = 'QUEUED' | 'PROCESSING' | 'SUCCEEDED' | 'FAILED';

/** How far a running job is; the job status answer shows it while PROCESSING. */
export interface JobProgress {
  slidesDone: number;
  slidesTotal: number;
  /** Pages of the PDF or slide images rendered so far; null when the job renders nothing (or not yet). */
  pagesRendered: number | null;
}

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
  /** The first MAX_JOB_WARNINGS of the job's warnings (job-status.ts). */
  warnings: Warning[];
  /** How many warnings the job had in all; absent on records written before it was kept: `warnings.length`. */
  warningCount?: number;
  /** Blob key and download name of the result, when SUCCEEDED. */
  resultKey: string | null;
  resultFileName: string | null;
  slideCount: number | null;
  /** How far a PROCESSING job is (docs/http-api.md, Asynchronous); null before the first report. */
  progress?: JobProgress | null;
}

export interface JobOutcome {
  resultKey: string;
  resultFileName: string;
  slideCount: number;
  /** The first MAX_JOB_WARNINGS of the warnings, and how many there were. */
  warnings: Warning[];
  warningCount: number;
}

export interface JobStore {
  create(job: JobRecord): Promise<void>;
  get(id: string): Promise<JobRecord | null>;
  /** QUEUED → PROCESSING; false when the job is not QUEUED (gone, or already taken). */
  markProcessing(id: string, at: Date): Promise<boolean>;
  /** PROCESSING → QUEUED, for a retry after an interrupted attempt. */
  markQueued(id: string, at: Date): Promise<boolean>;
  /** Records how far a PROCESSING job is; nothing happens to a job in another state. */
  setProgress(id: string, progress: JobProgress): Promise<void>;
  markSucceeded(id: string, outcome: JobOutcome, at: Date): Promise<boolean>;
  markFailed(id: string, errorMessage: string, at: Date, warnings?: Warning[]): Promise<boolean>;
  countByState(): Promise<Record<JobState, number>>;
  /** The account's jobs, most recently submitted first, at most `limit` (the console's list; account deletion). */
  listByAccount(accountId: string, limit: number): Promise<JobRecord[]>;
  /** Jobs whose `expiresAt` is before `now`, oldest first, at most `limit`. */
  listExpired(now: Date, limit: number): Promise<JobRecord[]>;
  /** Deletes the job's record, and the result kept beside it (`keepsResults`) with it. */
  delete(id: string): Promise<boolean>;
  /**
   * True when the store keeps a small finished result beside the job's record (`createWithResult`), answering
   * downloads from there: only a store whose downloads come through our own link route (the data directory's
   * SQLite file with local-disk blobs) says so; PostgreSQL, and any store beside S3, leave results in the bucket.
   */
  readonly keepsResults?: boolean;
  /**
   * Writes a finished job and its result together (one transaction): `job.resultKey` still names the result, and
   * `getResult` answers it. Only called when `keepsResults`.
   */
  createWithResult?(job: JobRecord, result: Uint8Array): Promise<void>;
  /** The result kept beside the job, if any (null for a result in the blob store). */
  getResult?(id: string): Promise<Uint8Array | null>;
}
