/**
 * The durable queue that feeds the job consumer, fairly across accounts. Job records are the JobStore port's
 * (job-store.ts); the SQLite adapters keep both in one database.
 */
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
