/**
 * What the operational endpoints report (docs/http-api.md, "Operational endpoints"): the counts behind
 * /metrics and the checks behind /healthz.
 */
import type { ServiceHealth, ServiceStats } from './deckforge-service.js';
import type { ServiceDeps } from './service-deps.js';

/** /healthz says "degraded" once no generation thread has been free for this long. */
export const WORKERS_STALLED_AFTER_MS = 30_000;

export async function serviceStats(deps: ServiceDeps): Promise<ServiceStats> {
  const [jobsByState, queueDepth] = await Promise.all([deps.jobs.countByState(), deps.queue.depth()]);
  return {
    jobsByState,
    queueDepth,
    generatedDecks: deps.counters.decks,
    generatedSlides: deps.counters.slides,
    generationSeconds: deps.counters.seconds,
    workers: deps.pool.stats(),
  };
}

export async function serviceHealth(deps: ServiceDeps): Promise<ServiceHealth> {
  const checks = {
    database: await deps.accounts.count().then(
      () => true,
      () => false,
    ),
    queue: await deps.queue.depth().then(
      () => true,
      () => false,
    ),
    blobStore: await deps.blobs.ping().catch(() => false),
  };
  const workers = deps.pool.stats();
  // Every thread busy (or being replaced) for long: requests wait however healthy the rest is.
  const stalled = workers.saturatedMs >= WORKERS_STALLED_AFTER_MS;
  const status = !Object.values(checks).every(Boolean) ? 'unavailable' : stalled ? 'degraded' : 'ok';
  return { status, checks: { ...checks, workers: !stalled }, workers, previews: deps.renderer.status() };
}
