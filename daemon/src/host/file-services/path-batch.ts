export interface PathBatchOptions {
  /** Quiet time after the last path before the batch is handled. */
  debounceMs: number;
  /** Longest a path waits while events keep coming (a long upload writes all the time). */
  maxWaitMs: number;
}

/**
 * Gathers paths from file-system events and hands them over in batches: once the events
 * pause, or at the latest maxWaitMs after the first one. One batch runs at a time; paths that
 * arrive meanwhile form the next. A path named many times is handled once per batch.
 */
export class PathBatch {
  private pending = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private firstAt = 0;
  private running: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly handle: (paths: string[]) => Promise<void>,
    private readonly options: PathBatchOptions,
  ) {}

  add(path: string): void {
    if (this.closed) return;
    if (this.pending.size === 0) this.firstAt = Date.now();
    this.pending.add(path);
    clearTimeout(this.timer);
    const wait = Math.max(0, Math.min(this.options.debounceMs, this.firstAt + this.options.maxWaitMs - Date.now()));
    this.timer = setTimeout(() => this.flush(), wait);
  }

  /** Resolves when no batch is waiting or running. */
  async settled(): Promise<void> {
    while (this.pending.size > 0 || this.timer) {
      if (this.timer) {
        clearTimeout(this.timer);
        this.flush();
      }
      await this.running;
    }
    await this.running;
  }

  /** Drops what is pending; a running batch finishes. */
  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pending.clear();
  }

  private flush(): void {
    this.timer = undefined;
    const paths = [...this.pending];
    this.pending = new Set();
    if (paths.length === 0) return;
    // The handler reports its own failures; a rejection here must not stop later batches.
    this.running = this.running.then(() => this.handle(paths)).catch(() => undefined);
  }
}
