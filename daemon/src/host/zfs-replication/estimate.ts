import type { CommandRunner } from '../command-runner.ts';

const sizeLine = /^size\s+(\d+)\s*$/m;

/**
 * The stream's size in bytes, for progress. OpenZFS answers it exactly with `zfs send -nP`
 * (a `size` line). zfs-fuse has no -n nor -P (`send [-RDp] [-[iI] snapshot]`), so there it is
 * estimated from space accounting: a full stream is about the snapshot's `referenced`; an
 * incremental one carries the blocks written after the base that the snapshot still holds,
 * about `referenced(snap) - referenced(base) + used(base)` (what grew, plus what the base alone
 * still holds because it was overwritten or deleted since). Measured here within 1 % for files
 * added; off when many files changed between intermediate snapshots, hence only an estimate:
 * progress never claims more than the bytes really sent.
 */
export async function estimateSendBytes(runner: CommandRunner, snapshot: string, base?: string): Promise<number> {
  const incremental = base ? ['-i', base] : [];
  const probe = await runner.read(['zfs', 'send', '-nP', ...incremental, snapshot], { allowFailure: true, timeoutMs: 60_000 });
  const exact = probe.exitCode === 0 ? sizeLine.exec(probe.stdout + probe.stderr) : null;
  if (exact) return Number(exact[1]);
  const names = base ? [snapshot, base] : [snapshot];
  const r = await runner.read(['zfs', 'get', '-H', '-p', '-o', 'name,property,value', 'referenced,used', ...names], { allowFailure: true, timeoutMs: 60_000 });
  const value = (name: string, property: string) => {
    const line = r.stdout.split('\n').find((l) => l.startsWith(`${name}\t${property}\t`));
    return Number(line?.split('\t')[2]) || 0;
  };
  if (!base) return value(snapshot, 'referenced');
  return Math.max(0, value(snapshot, 'referenced') - value(base, 'referenced') + value(base, 'used'));
}
