/**
 * Work a request starts but does not wait for: what sign-up and password reset do differently for a known and an
 * unknown address (hashing, account rows, the SMTP transaction) runs here, so their answers take the same time
 * either way (docs/console.md, "Sign-up" and "The mails"). A failure is logged; shutdown waits for the rest.
 */
import type { ServiceLogger } from './ports/index.js';

export class AfterAnswer {
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly logger: ServiceLogger) {}

  /** Starts `work` once the caller has returned; `failure` is the log message when it throws. */
  run(failure: string, work: () => Promise<void>): void {
    const running: Promise<void> = Promise.resolve()
      .then(work)
      .catch((error: unknown) => this.logger.error({ err: error }, failure))
      .finally(() => this.pending.delete(running));
    this.pending.add(running);
  }

  /** Resolves when all the work started so far (and any it started) has ended. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all(this.pending);
  }
}
