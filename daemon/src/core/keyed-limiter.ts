import type { Clock } from './clock.ts';
import { TokenBucket } from './token-bucket.ts';

/** One token bucket per key (an app, a client address): a burst of `capacity`, then `perSecond` on average. */
export class KeyedLimiter {
  private readonly buckets = new Map<string, TokenBucket>();

  constructor(
    private readonly capacity: number,
    private readonly perSecond: number,
    private readonly clock: Clock,
  ) {}

  take(key: string, wanted: number): number {
    let bucket = this.buckets.get(key);
    if (!bucket) {
      this.forgetIdle();
      bucket = new TokenBucket(this.capacity, this.perSecond, this.clock);
      this.buckets.set(key, bucket);
    }
    return bucket.take(wanted);
  }

  /** A full bucket is the same as a new one: dropping them keeps the map small. */
  private forgetIdle(): void {
    if (this.buckets.size < 256) return;
    for (const [key, bucket] of this.buckets) if (bucket.isFull()) this.buckets.delete(key);
  }
}
