import { readdir, readFile } from 'node:fs/promises';

/** The kernel's running totals at one instant; rates come from two of these. */
export interface ResourceCounters {
  /** Monotonic milliseconds (performance.now), for the time between two readings. */
  at: number;
  cpu: { busy: number; total: number };
  memory: { totalBytes: number; availableBytes: number };
  /** Bytes received and sent per interface, loopback left out. */
  network: Map<string, { in: number; out: number }>;
  /** Bytes read and written per block device and partition (/proc/diskstats counts 512-byte sectors). */
  blocks: Map<string, { in: number; out: number }>;
  /** Whole disks (those in /sys/block), without RAM, loop and optical devices. */
  disks: string[];
}

/** The `cpu` line of /proc/stat: busy and total jiffies of all processors; idle and iowait are not busy. */
export function parseCpu(stat: string): { busy: number; total: number } {
  const fields = /^cpu\s+(.+)$/m.exec(stat)?.[1]?.trim().split(/\s+/).map(Number) ?? [];
  // guest and guest_nice are already counted in user and nice.
  const total = fields.slice(0, 8).reduce((a, b) => a + b, 0);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
  return { busy: total - idle, total };
}

export function parseMeminfo(meminfo: string): { totalBytes: number; availableBytes: number } {
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(meminfo)?.[1] ?? 0) * 1024;
  return { totalBytes: kb('MemTotal'), availableBytes: kb('MemAvailable') };
}

export function parseNetDev(netDev: string): Map<string, { in: number; out: number }> {
  const result = new Map<string, { in: number; out: number }>();
  for (const line of netDev.split('\n').slice(2)) {
    const m = /^\s*([^:\s]+):\s*(.*)$/.exec(line);
    if (!m?.[1] || !m[2] || m[1] === 'lo') continue;
    const fields = m[2].trim().split(/\s+/).map(Number);
    result.set(m[1], { in: fields[0] ?? 0, out: fields[8] ?? 0 });
  }
  return result;
}

export function parseDiskstats(diskstats: string): Map<string, { in: number; out: number }> {
  const result = new Map<string, { in: number; out: number }>();
  for (const line of diskstats.split('\n')) {
    const f = line.trim().split(/\s+/);
    if (f.length < 10 || !f[2]) continue;
    result.set(f[2], { in: Number(f[5]) * 512, out: Number(f[9]) * 512 });
  }
  return result;
}

const notDisks = /^(ram|zram|loop|sr|fd)\d*$/;

/** Reads /proc/stat, /proc/meminfo, /proc/net/dev, /proc/diskstats and /sys/block; read-only and cheap. */
export async function readCounters(): Promise<ResourceCounters> {
  const at = performance.now();
  const [stat, meminfo, netDev, diskstats, block] = await Promise.all([
    readFile('/proc/stat', 'utf8'),
    readFile('/proc/meminfo', 'utf8'),
    readFile('/proc/net/dev', 'utf8'),
    readFile('/proc/diskstats', 'utf8'),
    readdir('/sys/block').catch(() => [] as string[]),
  ]);
  return {
    at,
    cpu: parseCpu(stat),
    memory: parseMeminfo(meminfo),
    network: parseNetDev(netDev),
    blocks: parseDiskstats(diskstats),
    disks: block.filter((name) => !notDisks.test(name)).sort(),
  };
}
