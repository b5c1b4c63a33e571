/**
 * Limits how often a job's progress is published: at most once per interval, with the
 * latest value always sent at the end of an interval, so a fast job cannot flood clients
 * and a slow one never leaves a stale value on screen.
 */
export class ProgressThrottle {
  private lastAt = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly intervalMs: number,
    private readonly emit: () => void,
  ) {}

  /** New progress is there to publish. */
  report(): void {
    if (this.closed || this.timer) return;
    const wait = this.lastAt + this.intervalMs - performance.now();
    if (wait <= 0) {
      this.flush();
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush();
    }, wait);
  }

  /** Something else just published the job with its latest progress (a state change): nothing is pending. */
  published(): void {
    this.cancelTimer();
    this.lastAt = performance.now();
  }

  close(): void {
    this.closed = true;
    this.cancelTimer();
  }

  private flush(): void {
    if (this.closed) return;
    this.lastAt = performance.now();
    this.emit();
  }

  private cancelTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
