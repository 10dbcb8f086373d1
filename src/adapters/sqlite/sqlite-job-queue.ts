/**
 * The in-process durable queue: a table in the same SQLite file, so a queued job survives a restart. A claim
 * carries a lease (renewed while the job runs) and its owner: host, pid and queue instance. A claim whose lease
 * ran out, or whose owner on this host is gone, was interrupted and is recovered (retried or abandoned). "Gone"
 * includes the same pid with an instance this process does not run: a container restarted as pid 1 again.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { ClaimedJob, Clock, JobQueue, RecoveredJobs } from '../../service/ports/index.js';
import { immediate, type SqliteDatabase } from './database.js';

interface QueueRow {
  job_id: string;
  attempts: number;
  lease_until: number | null;
  owner_host: string | null;
  owner_pid: number | null;
  owner_instance: string | null;
}

/** Queue instances alive in this process (module state on purpose: it describes the process itself). */
const LIVE_INSTANCES = new Set<string>();

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as { code?: string }).code === 'EPERM';
  }
}

export class SqliteJobQueue implements JobQueue {
  private readonly host = hostname();
  private readonly instance = randomUUID();

  /** Leases are measured on the runtime's clock, the same one every other part of the service reads. */
  constructor(
    private readonly db: SqliteDatabase,
    private readonly clock: Clock,
  ) {
    LIVE_INSTANCES.add(this.instance);
  }

  /** This instance's claims become recoverable at once (by another instance) instead of after their lease. */
  async close(): Promise<void> {
    LIVE_INSTANCES.delete(this.instance);
  }

  async enqueue(jobId: string): Promise<void> {
    immediate(this.db, () => {
      const seq = (
        this.db.prepare('SELECT COALESCE(MAX(enqueued_seq), 0) + 1 AS s FROM job_queue').get() as {
          s: number;
        }
      ).s;
      this.db.prepare('INSERT OR IGNORE INTO job_queue (job_id, enqueued_seq) VALUES (?, ?)').run(jobId, seq);
    });
  }

  /**
   * Fair across accounts: the oldest waiting job of the account holding the fewest claims right now,
   * so one account's backlog cannot keep another account's first job waiting. The account comes from the jobs
   * table in the same file; a job whose record is gone counts as an account of its own (its run just acks it).
   * The cap counts this instance's claims only: several consumers of one file each keep room for other accounts.
   */
  async claim(leaseMs: number, maxPerAccount = Infinity): Promise<ClaimedJob | null> {
    return immediate(this.db, () => {
      const row = this.db
        .prepare(
          `WITH held AS (
             SELECT j.account_id, COUNT(*) AS n, SUM(c.owner_instance = ?) AS mine
             FROM job_queue c JOIN jobs j ON j.id = c.job_id
             WHERE c.lease_until IS NOT NULL GROUP BY j.account_id)
           SELECT q.job_id, q.attempts, j.account_id, COALESCE(held.n, 0) AS held
           FROM job_queue q LEFT JOIN jobs j ON j.id = q.job_id LEFT JOIN held ON held.account_id = j.account_id
           WHERE q.lease_until IS NULL AND COALESCE(held.mine, 0) < ?
           ORDER BY held, q.enqueued_seq LIMIT 1`,
        )
        .get(this.instance, Number.isFinite(maxPerAccount) ? maxPerAccount : Number.MAX_SAFE_INTEGER) as
        { job_id: string; attempts: number; account_id: string | null } | undefined;
      if (!row) return null;
      this.db
        .prepare(
          `UPDATE job_queue SET attempts = attempts + 1, lease_until = ?, owner_host = ?, owner_pid = ?,
             owner_instance = ? WHERE job_id = ?`,
        )
        .run(this.clock.now().getTime() + leaseMs, this.host, process.pid, this.instance, row.job_id);
      return { jobId: row.job_id, attempt: row.attempts + 1, accountId: row.account_id };
    });
  }

  async renew(jobId: string, leaseMs: number): Promise<void> {
    this.db
      .prepare('UPDATE job_queue SET lease_until = ? WHERE job_id = ? AND lease_until IS NOT NULL')
      .run(this.clock.now().getTime() + leaseMs, jobId);
  }

  async ack(jobId: string): Promise<void> {
    this.db.prepare('DELETE FROM job_queue WHERE job_id = ?').run(jobId);
  }

  async recoverInterrupted(maxAttempts: number): Promise<RecoveredJobs> {
    return immediate(this.db, () => {
      const claimed = this.db
        .prepare(
          `SELECT job_id, attempts, lease_until, owner_host, owner_pid, owner_instance FROM job_queue
           WHERE lease_until IS NOT NULL`,
        )
        .all() as QueueRow[];
      const now = this.clock.now().getTime();
      const result: RecoveredJobs = { requeued: [], abandoned: [] };
      for (const row of claimed) {
        const ownerGone = row.owner_host === this.host && row.owner_pid !== null && this.ownerIsGone(row);
        const leaseOver = row.lease_until !== null && row.lease_until < now;
        if (!ownerGone && !leaseOver) continue;
        if (row.attempts < maxAttempts) {
          this.db
            .prepare(
              `UPDATE job_queue SET lease_until = NULL, owner_host = NULL, owner_pid = NULL, owner_instance = NULL
               WHERE job_id = ?`,
            )
            .run(row.job_id);
          result.requeued.push(row.job_id);
        } else {
          this.db.prepare('DELETE FROM job_queue WHERE job_id = ?').run(row.job_id);
          result.abandoned.push(row.job_id);
        }
      }
      return result;
    });
  }

  private ownerIsGone(row: QueueRow): boolean {
    if (row.owner_pid !== process.pid) return !processIsAlive(row.owner_pid ?? 0);
    return row.owner_instance === null || !LIVE_INSTANCES.has(row.owner_instance);
  }

  async depth(): Promise<number> {
    return (
      this.db.prepare('SELECT COUNT(*) AS n FROM job_queue WHERE lease_until IS NULL').get() as { n: number }
    ).n;
  }

  async remove(jobId: string): Promise<void> {
    this.db.prepare('DELETE FROM job_queue WHERE job_id = ?').run(jobId);
  }
}
