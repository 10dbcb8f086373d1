/**
 * How many synchronous generations one account may run at once: without a bound, two slow requests
 * of one account take every generation thread and every other account waits behind them. A request over the
 * bound waits for one of its account's own generations to finish, so it is served later rather than refused,
 * and the threads it would have taken stay with the other accounts.
 */
export class AccountGate {
  private readonly running = new Map<string, number>();
  private readonly waiting = new Map<string, (() => void)[]>();

  constructor(private readonly limit: number) {}

  /**
   * Resolves when `account` may generate, with the function that ends its turn (call it once). Rejects with
   * `signal`'s reason when it aborts while waiting.
   */
  async enter(account: string, signal?: AbortSignal): Promise<() => void> {
    const now = this.running.get(account) ?? 0;
    if (now < this.limit) this.running.set(account, now + 1);
    else await this.wait(account, signal); // the leaving generation hands its place over
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.leave(account);
    };
  }

  private wait(account: string, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const queue = this.waiting.get(account) ?? [];
      const wake = (): void => {
        signal?.removeEventListener('abort', abandon);
        resolve();
      };
      const abandon = (): void => {
        const index = queue.indexOf(wake);
        if (index >= 0) queue.splice(index, 1);
        if (queue.length === 0) this.waiting.delete(account);
        reject(signal?.reason);
      };
      if (signal?.aborted) return void reject(signal.reason);
      signal?.addEventListener('abort', abandon, { once: true });
      queue.push(wake);
      this.waiting.set(account, queue);
    });
  }

  private leave(account: string): void {
    const queue = this.waiting.get(account);
    const next = queue?.shift();
    if (queue?.length === 0) this.waiting.delete(account);
    if (next) return next(); // the place passes on: the count stays
    const remaining = (this.running.get(account) ?? 1) - 1;
    if (remaining > 0) this.running.set(account, remaining);
    else this.running.delete(account);
  }
}
