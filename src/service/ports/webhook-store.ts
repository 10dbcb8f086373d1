/**
 * Webhooks' state: each account's signing secret, and one delivery per job submitted with a callback_url (its
 * progress is what the job status shows). Kept in the database so that deliveries survive a restart and are sent
 * by whichever process is running, once.
 */
export type WebhookState = 'WAITING' | 'DELIVERING' | 'DELIVERED' | 'GAVE_UP';

export interface WebhookDeliveryRecord {
  jobId: string;
  accountId: string;
  url: string;
  /** The scheme, host and port the event's file_url starts with; null when the submission gave none. */
  linkBase: string | null;
  state: WebhookState;
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  /** ISO 8601: when the job ended (the retry window starts there); null while WAITING. */
  endedAt: string | null;
  /** ISO 8601: when the next attempt is due, or until when a process holds the delivery. */
  nextAttemptAt: string | null;
}

export interface WebhookAttemptOutcome {
  state: WebhookState;
  lastStatus: number | null;
  lastError: string | null;
  nextAttemptAt: string | null;
}

export interface WebhookStore {
  /** Sets (or replaces) the account's secret. */
  setSecret(accountId: string, secret: string, at: Date): Promise<void>;
  getSecret(accountId: string): Promise<string | null>;
  /** The account is being deleted: its signing secret goes (its jobs' deliveries go with the jobs). */
  forgetAccount(accountId: string): Promise<void>;
  createDelivery(record: WebhookDeliveryRecord): Promise<void>;
  getDelivery(jobId: string): Promise<WebhookDeliveryRecord | null>;
  /** Deliveries still WAITING for their job to end, at most `limit`. */
  listWaiting(limit: number): Promise<WebhookDeliveryRecord[]>;
  /** WAITING → DELIVERING, due at once; false when it was not WAITING. */
  markEnded(jobId: string, at: Date): Promise<boolean>;
  /**
   * DELIVERING deliveries due by `now`, each held until `holdUntil` (its next attempt time moves there), so no
   * other process sends it meanwhile; at most `limit`, oldest first, none of the accounts in `exceptAccounts`.
   */
  claimDue(
    now: Date,
    holdUntil: Date,
    limit: number,
    exceptAccounts?: readonly string[],
  ): Promise<WebhookDeliveryRecord[]>;
  /** Records one attempt: `attempts` grows by one. */
  recordAttempt(jobId: string, outcome: WebhookAttemptOutcome): Promise<void>;
  deleteDelivery(jobId: string): Promise<void>;
}
