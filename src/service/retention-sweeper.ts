/**
 * Housekeeping every minute: expired jobs and their files (DECKFORGE_JOB_RETENTION_HOURS), tokens expired for a
 * day, synchronous reservations left by a process that died mid-request, ended console sessions and one-time
 * links expired for a day (kept that long so a late click is told "expired" rather than "not valid").
 */
import { IDLE_MS } from './accounts/console-sessions.js';
import { deleteJob } from './jobs/job-status.js';
import type { ServiceDeps } from './service-deps.js';

const STALE_RESERVATION_MS = 60 * 60 * 1000;

export async function sweepOnce(deps: ServiceDeps): Promise<{ jobs: number }> {
  const now = deps.clock.now();
  let deleted = 0;
  for (;;) {
    const expired = await deps.jobs.listExpired(now, 100);
    for (const job of expired) await deleteJob(deps, job);
    deleted += expired.length;
    if (expired.length < 100) break;
  }
  await deps.tokens.deleteExpired(new Date(now.getTime() - 24 * 3_600_000));
  await deps.ledger.releaseStale(new Date(now.getTime() - STALE_RESERVATION_MS));
  await deps.sessions.deleteExpired(now, new Date(now.getTime() - IDLE_MS));
  await deps.oneTimeTokens.deleteExpired(new Date(now.getTime() - 24 * 3_600_000));
  if (deleted > 0) deps.logger.info({ jobs: deleted }, 'expired jobs deleted');
  return { jobs: deleted };
}

export class RetentionSweeper {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly everyMs = 60_000,
  ) {}

  start(): void {
    if (this.timer) return;
    const run = (): void => {
      sweepOnce(this.deps).catch((error: unknown) =>
        this.deps.logger.error({ err: error }, 'retention sweep failed'),
      );
    };
    run();
    this.timer = setInterval(run, this.everyMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
