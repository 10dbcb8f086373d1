/**
 * A bounded stop for `serve` and `worker` (docs/security.md): running work gets `timeoutMs` to finish, then it is
 * interrupted (generation threads terminated, connections closed), so SIGTERM ends the process whatever the
 * threads are doing. Jobs interrupted this way keep their queue claim and run again at the next start.
 */
export interface ShutdownSteps {
  /** The orderly stop: stop taking work, wait for what runs, release resources. */
  stop(): Promise<void>;
  /** Makes `stop` finish now by ending the work it waits for. */
  interrupt(): Promise<void>;
  /** Told when the timeout passes and work is interrupted. */
  onTimeout?(): void;
}

export async function shutDownWithin(timeoutMs: number, steps: ShutdownSteps): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), timeoutMs);
  });
  const stopping = steps.stop();
  try {
    if ((await Promise.race([stopping.then(() => 'done' as const), late])) === 'late') {
      steps.onTimeout?.();
      await steps.interrupt();
    }
    await stopping;
  } finally {
    clearTimeout(timer);
  }
}
