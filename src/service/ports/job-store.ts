/**
 * Job records (state, outcome) and the durable queue that feeds the consumer. Two ports because they part ways
 * later (PostgreSQL rows + BullMQ); the SQLite adapters keep both in the same file.
 */
import type { Warning } from '../../engine/index.js';
import type { JobProgress, JobState } from '../deckforge-service.js';

export type { JobProgress };

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
  /** How far a PROCESSING job is (docs/http-api.md, Asynchronous); null before the first report. */
  progress?: JobProgress | null;
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
  /** Records how far a PROCESSING job is; nothing happens to a job in another state. */
  setProgress(id: string, progress: JobProgress): Promise<void>;
  markSucceeded(id: string, outcome: JobOutcome, at: Date): Promise<boolean>;
  markFailed(id: string, errorMessage: string, at: Date, warnings?: Warning[]): Promise<boolean>;
  countByState(): Promise<Record<JobState, number>>;
  /** The account's jobs, most recently submitted first, at most `limit` (the console's list; account deletion). */
  listByAccount(accountId: string, limit: number): Promise<JobRecord[]>;
  /** Jobs whose `expiresAt` is before `now`, oldest first, at most `limit`. */
  listExpired(now: Date, limit: number): Promise<JobRecord[]>;
  delete(id: string): Promise<boolean>;
}

export interface ClaimedJob {
  jobId: string;
  /** 1 on the first run, 2 on the retry after an interrupted run, … */
  attempt: number;
  /** The account that submitted it (null when the job record is gone): the consumer shares threads by account. */
  accountId: string | null;
}

export interface RecoveredJobs {
  /** Interrupted jobs put back in the queue for another attempt. */
  requeued: string[];
  /** Interrupted jobs that used up their attempts; removed from the queue. */
  abandoned: string[];
}

export interface JobQueue {
  enqueue(jobId: string): Promise<void>;
  /**
   * Takes a waiting job under a lease, fairly across accounts: the oldest job of the account with the fewest
   * claimed jobs, skipping accounts that already hold `maxPerAccount` of this consumer's claims (so each consumer
   * keeps room for other accounts, while one account alone may keep every consumer busy); null when none qualifies.
   */
  claim(leaseMs: number, maxPerAccount?: number): Promise<ClaimedJob | null>;
  /** Extends the lease of a job this consumer is running. */
  renew(jobId: string, leaseMs: number): Promise<void>;
  /** The job is finished (either way): remove it from the queue. */
  ack(jobId: string): Promise<void>;
  /**
   * Claims whose lease expired or whose consumer process is gone (the process was killed mid-job): requeued
   * while `attempt < maxAttempts`, abandoned otherwise.
   */
  recoverInterrupted(maxAttempts: number): Promise<RecoveredJobs>;
  /** Jobs waiting (not claimed). */
  depth(): Promise<number>;
  remove(jobId: string): Promise<void>;
  /** This consumer stops: its remaining claims may be recovered by others without waiting for their lease. */
  close(): Promise<void>;
}
