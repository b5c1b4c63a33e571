import type { Clock } from './clock.ts';

/** Allows bursts of `capacity`, then `perSecond` on average; what does not fit is refused, not queued. */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly capacity: number,
    private readonly perSecond: number,
    private readonly clock: Clock,
  ) {
    this.tokens = capacity;
    this.last = clock.now();
  }

  /** Takes up to `wanted` tokens; answers how many it got. */
  take(wanted: number): number {
    const now = this.clock.now();
    // A clock that moves back (time set) refills nothing rather than going negative.
    const elapsed = Math.max(0, now - this.last);
    this.last = now;
    this.tokens = Math.min(this.capacity, this.tokens + (elapsed * this.perSecond) / 1000);
    const granted = Math.min(wanted, Math.floor(this.tokens));
    this.tokens -= granted;
    return granted;
  }

  /** Full again: a bucket in this state can be forgotten. */
  isFull(): boolean {
    const elapsed = Math.max(0, this.clock.now() - this.last);
    return this.tokens + (elapsed * this.perSecond) / 1000 >= this.capacity;
  }
}
