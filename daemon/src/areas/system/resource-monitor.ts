import { monitorHistoryMs, type ResourceHistory, type ResourceSample, type Throughput } from '../../../../shared/src/api/system/monitor.ts';
import type { Clock } from '../../core/clock.ts';
import type { Logger } from '../../core/logger.ts';
import type { ResourceCounters } from '../../host/resource-counters.ts';

export interface MonitorDeps {
  read(): Promise<ResourceCounters>;
  /** Each pool's member devices by kernel name (sda, nvme0n1p2, loop3). */
  poolMembers(): Promise<Map<string, string[]>>;
  /** How many sockets watch the topic now: none, and sampling stops. */
  listeners(): number;
  publish(sample: ResourceSample): void;
  clock: Clock;
  logger: Logger;
  intervalMs?: number;
}

type Counts = Map<string, { in: number; out: number }>;

function rates(names: readonly string[], before: Counts, after: Counts, seconds: number): Throughput[] {
  return names.flatMap((name) => {
    const a = before.get(name);
    const b = after.get(name);
    if (!a || !b) return [];
    // A counter that went back (a device replaced, a wrap) counts as nothing moved.
    return [{ name, inPerSecond: Math.max(0, (b.in - a.in) / seconds), outPerSecond: Math.max(0, (b.out - a.out) / seconds) }];
  });
}

/** One sample from two readings a second apart. */
export function sampleOf(before: ResourceCounters, after: ResourceCounters, pools: Map<string, string[]>, at: number): ResourceSample {
  const seconds = Math.max(0.001, (after.at - before.at) / 1000);
  const total = after.cpu.total - before.cpu.total;
  const sum = (members: readonly string[], counts: Counts): { in: number; out: number } =>
    members.reduce((acc, m) => ({ in: acc.in + (counts.get(m)?.in ?? 0), out: acc.out + (counts.get(m)?.out ?? 0) }), { in: 0, out: 0 });
  const poolCounts = (counts: Counts): Counts => new Map([...pools].map(([pool, members]) => [pool, sum(members, counts)]));
  return {
    at: new Date(at).toISOString(),
    cpu: total > 0 ? Math.min(1, Math.max(0, (after.cpu.busy - before.cpu.busy) / total)) : 0,
    memory: { totalBytes: after.memory.totalBytes, usedBytes: after.memory.totalBytes - after.memory.availableBytes },
    network: rates([...after.network.keys()].sort(), before.network, after.network, seconds),
    disks: rates(after.disks, before.blocks, after.blocks, seconds),
    pools: rates([...pools.keys()].sort(), poolCounts(before.blocks), poolCounts(after.blocks), seconds),
  };
}

/**
 * The resource monitor: samples each second while somebody watches `system/monitor`, and never
 * otherwise (a watch starts it; the first tick that finds no listener stops it). The last
 * hour's samples stay in memory for a graph's first paint.
 */
export class ResourceMonitor {
  private readonly history: ResourceSample[] = [];
  private timer: NodeJS.Timeout | null = null;
  private last: ResourceCounters | null = null;
  private busy = false;

  constructor(private readonly deps: MonitorDeps) {}

  get intervalMs(): number {
    return this.deps.intervalMs ?? 1000;
  }

  /** A subscriber arrived: sampling runs (again) from now. */
  watch(): ResourceHistory {
    if (!this.timer) {
      this.last = null;
      this.timer = setInterval(() => this.sample(), this.intervalMs);
      this.timer.unref();
      this.sample();
    }
    return this.snapshot();
  }

  snapshot(): ResourceHistory {
    this.prune();
    return { intervalMs: this.intervalMs, samples: [...this.history] };
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** A tick with nobody to await it: what it did not catch itself is logged. */
  private sample(): void {
    void this.tick().catch((err: unknown) =>
      this.deps.logger.warn('resource sample failed', { component: 'system', error: err instanceof Error ? err.message : String(err) }),
    );
  }

  private async tick(): Promise<void> {
    if (this.busy) return;
    // A tick right after watch() runs before the subscriber has joined the room: it counts as pending there.
    if (this.deps.listeners() === 0) {
      this.close();
      return;
    }
    this.busy = true;
    try {
      const [counters, pools] = await Promise.all([this.deps.read(), this.deps.poolMembers()]);
      if (this.last && this.timer) {
        const sample = sampleOf(this.last, counters, pools, this.deps.clock.now());
        this.history.push(sample);
        this.prune();
        this.deps.publish(sample);
      }
      this.last = counters;
    } catch (err) {
      this.deps.logger.warn('resource sample failed', { component: 'system', error: err instanceof Error ? err.message : String(err) });
    } finally {
      this.busy = false;
    }
  }

  private prune(): void {
    const oldest = this.deps.clock.now() - monitorHistoryMs;
    while (this.history.length > 0 && Date.parse(this.history[0]?.at ?? '') < oldest) this.history.shift();
  }
}
