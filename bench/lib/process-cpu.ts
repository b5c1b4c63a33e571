import { readFileSync } from 'node:fs';

/** Linux counts process CPU time in clock ticks of 10 ms (CLK_TCK 100). */
const tickMs = 10;

/**
 * CPU time (user plus system, in ms) of a process and all its descendants, from /proc.
 * Unlike wall time it barely moves when other work shares the machine, which makes it the
 * steadier comparison of two servers doing the same job.
 */
export function treeCpuMs(pid: number): number {
  let total = 0;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    total += (Number(fields[11]) + Number(fields[12])) * tickMs;
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    for (const child of children) total += treeCpuMs(Number(child));
  } catch {
    // the process ended meanwhile: it adds nothing more
  }
  return total;
}
