import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { io } from 'socket.io-client';
import { startSignedInDaemon } from './lib/daemon-session.ts';
import { treeCpuMs } from './lib/process-cpu.ts';
import type { BenchRow } from './lib/table.ts';

const settleMs = 5000;
const windowMs = 30_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The daemon's CPU over a window, in percent of one core. */
async function cpuPercent(pid: number): Promise<number> {
  const before = treeCpuMs(pid);
  await sleep(windowMs);
  return ((treeCpuMs(pid) - before) / windowMs) * 100;
}

/** The resource monitor's cost: the daemon's CPU while one client watches `system/monitor`, against the same daemon idle. */
export async function systemBench(): Promise<BenchRow[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'cellar-bench-system-'));
  const daemon = await startSignedInDaemon(dir);
  try {
    await sleep(settleMs);
    const idle = await cpuPercent(daemon.pid);
    const socket = io(daemon.base, { path: '/socket.io', transports: ['websocket'], extraHeaders: { Cookie: daemon.headers.Cookie ?? '' } });
    let samples = 0;
    socket.on('event', () => (samples += 1));
    const ack = await socket.timeout(10_000).emitWithAck('subscribe', { topic: 'system/monitor' });
    if (!(ack as { ok: boolean }).ok) throw new Error(`subscribe refused: ${JSON.stringify(ack)}`);
    await sleep(2000);
    const watching = await cpuPercent(daemon.pid);
    socket.close();
    if (samples < windowMs / 1000 / 2) throw new Error(`only ${samples} samples arrived while watching`);
    return [
      {
        name: 'monitor: daemon CPU, one client watching',
        value: watching,
        unit: '% of a core',
        baseline: idle,
        baselineName: 'idle',
        target: 'under idle + 2',
        ok: watching - idle < 2,
      },
    ];
  } finally {
    await daemon.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
