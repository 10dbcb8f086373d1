/**
 * How far a running job is, written to its record as the generation thread reports it (docs/http-api.md,
 * Asynchronous). Reports come faster than a store may want them: one write is under way at a time, and only the
 * latest report waits behind it. A write that fails is logged and the job goes on: progress is a courtesy.
 */
import type { JobProgress } from '../ports/index.js';
import type { ServiceDeps } from '../service-deps.js';

export interface JobProgressWriter {
  /** For GenerationTask.onProgress. */
  slides(slidesDone: number, slidesTotal: number): void;
  /** For RenderRequest.onPages: the slides as last reported, with the pages rendered. */
  pages(pagesRendered: number): void;
  /** Resolves once every report so far is written. */
  settled(): Promise<void>;
}

export function jobProgressWriter(deps: ServiceDeps, jobId: string): JobProgressWriter {
  let pending: JobProgress | null = null;
  let latest: JobProgress = { slidesDone: 0, slidesTotal: 0, pagesRendered: null };
  let writing: Promise<void> = Promise.resolve();
  let busy = false;
  const drain = async (): Promise<void> => {
    busy = true;
    while (pending) {
      const next = pending;
      pending = null;
      await deps.jobs.setProgress(jobId, next).catch((error: unknown) => {
        deps.logger.warn({ jobId, err: error }, 'job progress not recorded');
      });
    }
    busy = false;
  };
  const report = (progress: JobProgress): void => {
    latest = progress;
    pending = progress;
    if (!busy) writing = drain();
  };
  return {
    slides: (slidesDone, slidesTotal) => report({ slidesDone, slidesTotal, pagesRendered: null }),
    pages: (pagesRendered) => report({ ...latest, pagesRendered }),
    settled: () => writing,
  };
}
