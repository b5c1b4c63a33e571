import type { TimeSync } from '../../../../shared/src/api/system/time.ts';
import type { CommandRunner } from '../command-runner.ts';
import { ProblemError } from '../../core/problem-error.ts';

const stateless = { source: null, stratum: null, offsetSeconds: null, package: null };

/**
 * One line of `chronyc -c tracking`: reference id, name or address, stratum, reference time,
 * system time offset, ..., leap status last. An unsynchronised chronyd says "Not synchronised".
 */
export function parseTracking(csv: string): TimeSync {
  const fields = csv.trim().split('\n')[0]?.split(',') ?? [];
  const leap = fields[fields.length - 1] ?? '';
  const stratum = Number(fields[2]);
  const offset = Number(fields[4]);
  if (fields.length < 14 || leap === 'Not synchronised' || fields[0] === '00000000') return { state: 'unsynchronized', ...stateless };
  return {
    state: 'synchronized',
    source: fields[1] || null,
    stratum: Number.isInteger(stratum) ? stratum : null,
    offsetSeconds: Number.isFinite(offset) ? offset : null,
    package: null,
  };
}

/** chronyd's state, asked over its local socket; a read that never changes the box, so it runs in development mode too. */
export async function readSync(runner: CommandRunner): Promise<TimeSync> {
  try {
    const r = await runner.read(['chronyc', '-c', '-n', 'tracking'], { allowFailure: true, timeoutMs: 3000 });
    // "506 Cannot talk to daemon": installed, not running.
    if (r.exitCode !== 0) return { state: 'notRunning', ...stateless };
    return parseTracking(r.stdout);
  } catch (err) {
    if (err instanceof ProblemError && err.code === 'host.tool.missing') return { state: 'notInstalled', ...stateless, package: 'chrony' };
    throw err;
  }
}
