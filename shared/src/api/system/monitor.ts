/** Throughput of one network interface, disk or pool, in bytes per second. */
export interface Throughput {
  name: string;
  /** Received (network) or read (disks, pools). */
  inPerSecond: number;
  /** Sent (network) or written (disks, pools). */
  outPerSecond: number;
}

/** One second of the box's load: the `system/monitor` topic's `sample` event. */
export interface ResourceSample {
  /** End of the second measured, in UTC. */
  at: string;
  /** Busy share of all processors together, 0 to 1. */
  cpu: number;
  memory: { totalBytes: number; usedBytes: number };
  network: Throughput[];
  disks: Throughput[];
  /** Sums of each pool's member disks. */
  pools: Throughput[];
}

/** Snapshot of `system/monitor`: the samples of the last hour, oldest first, for a graph's first paint. */
export interface ResourceHistory {
  intervalMs: number;
  samples: ResourceSample[];
}

/** How long samples are kept in memory: a graph's first paint shows this much. */
export const monitorHistoryMs = 60 * 60 * 1000;
