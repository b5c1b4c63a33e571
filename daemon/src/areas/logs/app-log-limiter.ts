import { logLimits } from '../../../../shared/src/api/logs.ts';
import type { Clock } from '../../core/clock.ts';
import { TokenBucket } from './token-bucket.ts';

/** Per app: a burst of 200 entries, then 20 a second (spec section 8). */
export class AppLogLimiter {
  private readonly buckets = new Map<string, TokenBucket>();

  constructor(private readonly clock: Clock) {}

  take(app: string, wanted: number): number {
    let bucket = this.buckets.get(app);
    if (!bucket) {
      this.forgetIdle();
      bucket = new TokenBucket(logLimits.appBurst, logLimits.appPerSecond, this.clock);
      this.buckets.set(app, bucket);
    }
    return bucket.take(wanted);
  }

  /** A full bucket is the same as a new one: dropping them keeps the map small. */
  private forgetIdle(): void {
    if (this.buckets.size < 256) return;
    for (const [app, bucket] of this.buckets) if (bucket.isFull()) this.buckets.delete(app);
  }
}
