/**
 * Renders waiting their turn: at most `concurrency` at once (image decoding is CPU and
 * memory heavy, and a NAS has few cores), each key once however often it is asked for.
 */
export class RenderQueue {
  private readonly waiting = new Map<string, () => Promise<void>>();
  private readonly running = new Map<string, Promise<void>>();
  private closed = false;

  constructor(
    private readonly concurrency: number,
    private readonly onError: (key: string, err: unknown) => void,
  ) {}

  /** Whether the key waits or renders right now. */
  has(key: string): boolean {
    return this.waiting.has(key) || this.running.has(key);
  }

  /** Queues the work unless its key is already queued or running; answers whether it was added. */
  add(key: string, work: () => Promise<void>): boolean {
    if (this.closed || this.has(key)) return false;
    this.waiting.set(key, work);
    this.pump();
    return true;
  }

  /** Resolves once nothing waits or runs (tests, benchmarks). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all(this.running.values());
  }

  /** Drops what waits and lets running renders finish. */
  async close(): Promise<void> {
    this.closed = true;
    this.waiting.clear();
    await this.idle();
  }

  private pump(): void {
    while (this.running.size < this.concurrency && this.waiting.size > 0) {
      const [key, work] = this.waiting.entries().next().value as [string, () => Promise<void>];
      this.waiting.delete(key);
      const run = Promise.resolve()
        .then(work)
        .catch((err: unknown) => this.onError(key, err))
        .finally(() => {
          this.running.delete(key);
          this.pump();
        });
      this.running.set(key, run);
    }
  }
}
