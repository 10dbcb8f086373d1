/**
 * The JobEvents port within one process: each event is handed to the listeners the composition root added,
 * in the order they were added.
 */
import type { JobEvents } from '../../service/ports/index.js';

type Listener = (jobId: string) => void;

export class InProcessJobEvents implements JobEvents {
  private readonly onQueued: Listener[] = [];
  private readonly onEnded: Listener[] = [];

  whenQueued(listener: Listener): void {
    this.onQueued.push(listener);
  }

  whenEnded(listener: Listener): void {
    this.onEnded.push(listener);
  }

  queued(jobId: string): void {
    tell(this.onQueued, jobId);
  }

  ended(jobId: string): void {
    tell(this.onEnded, jobId);
  }
}

function tell(listeners: readonly Listener[], jobId: string): void {
  for (const listener of listeners) listener(jobId);
}
