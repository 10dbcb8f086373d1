/** Waiting in a test for something other threads or processes do (a count in shared memory, a report). */

/** Resolves once `condition()` holds, checking every `intervalMs`; throws naming `what` after `timeoutMs`. */
export async function waitFor(
  condition: () => boolean,
  what: string,
  { timeoutMs = 60_000, intervalMs = 10 } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
