/**
 * The generation threads jobs may use, shared fairly between accounts: when a slot frees, it goes to
 * the waiting account that was served longest ago, not to the job that asked first. One account's queue of
 * heavy jobs therefore delays another account's job by at most the one job already generating.
 */
export class FairSlots {
  private free: number;
  /** Waiting jobs by account, in the order they asked. */
  private readonly waiting = new Map<string, (() => void)[]>();
  /** When each account was last given a slot (a counter, not a clock: only the order matters). */
  private readonly lastServed = new Map<string, number>();
  private served = 0;

  constructor(size: number) {
    this.free = size;
  }

  /** Requests waiting for a slot, all accounts together. */
  get waitingCount(): number {
    let count = 0;
    for (const queue of this.waiting.values()) count += queue.length;
    return count;
  }

  /**
   * Resolves when `account` has a slot; call the returned function to give it back (once). When `signal`
   * aborts while it waits, it leaves the queue and rejects with the signal's reason.
   */
  async acquire(account: string, signal?: AbortSignal): Promise<() => void> {
    signal?.throwIfAborted();
    if (this.free > 0 && this.waiting.size === 0) {
      this.free -= 1;
      this.note(account);
    } else {
      await new Promise<void>((resolve, reject) => {
        const queue = this.waiting.get(account) ?? [];
        const onAbort = (): void => {
          const at = queue.indexOf(wake);
          if (at < 0) return; // Already given a slot: the caller sees the abort and gives it back.
          queue.splice(at, 1);
          if (queue.length === 0 && this.waiting.get(account) === queue) this.waiting.delete(account);
          reject(signal?.reason);
        };
        const wake = (): void => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        queue.push(wake);
        this.waiting.set(account, queue);
      });
    }
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.free += 1;
      this.handOut();
    };
  }

  private handOut(): void {
    while (this.free > 0 && this.waiting.size > 0) {
      let next: string | null = null;
      for (const account of this.waiting.keys()) {
        if (next === null || (this.lastServed.get(account) ?? -1) < (this.lastServed.get(next) ?? -1)) {
          next = account;
        }
      }
      const queue = this.waiting.get(next as string) as (() => void)[];
      const wake = queue.shift() as () => void;
      if (queue.length === 0) this.waiting.delete(next as string);
      this.free -= 1;
      this.note(next as string);
      wake();
    }
  }

  private note(account: string): void {
    this.lastServed.set(account, this.served++);
    // Accounts long gone need no memory: only accounts still waiting are compared with one another.
    if (this.lastServed.size > 10_000) {
      for (const known of this.lastServed.keys())
        if (known !== account && !this.waiting.has(known)) this.lastServed.delete(known);
    }
  }
}
