/** Waiting for SIGINT/SIGTERM (or a test's AbortSignal) while keeping the process alive. */
export interface StopOptions {
  signal?: AbortSignal;
}

export function untilStopped(options: StopOptions): Promise<void> {
  return new Promise((resolve) => {
    // A ref'd timer: the process stays up even when nothing else is pending (an idle worker).
    const keepAlive = setInterval(() => undefined, 1 << 30);
    const done = (): void => {
      clearInterval(keepAlive);
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      resolve();
    };
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
    if (options.signal?.aborted) done();
    options.signal?.addEventListener('abort', done, { once: true });
  });
}
