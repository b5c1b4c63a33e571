import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { ReplicationBoxes, targetAddress } from '../test/helpers/replication-boxes.ts';
import type { BenchRow } from './lib/table.ts';

const MiB = 1024 * 1024;
/** The dataset's size in MiB; CELLAR_BENCH_REPLICATION_MIB makes it smaller for a quick look. */
const sizeMiB = Number(process.env.CELLAR_BENCH_REPLICATION_MIB ?? 1024);
const sh = (argv: string[]) => execFileSync(argv[0]!, argv.slice(1), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 600_000 });
const rate = (ms: number) => (sizeMiB * MiB) / 1e6 / (ms / 1000);

/**
 * `zfs send snap | ssh target <remote>`, the pipe made by the kernel as a shell would; `key` is the
 * pairing's (its forced command runs `zfs receive`) or one without a forced command.
 */
function byHand(boxes: ReplicationBoxes, snapshot: string, key: 'pairing' | 'by-hand', remote: string): Promise<number> {
  const started = performance.now();
  const send = spawn('zfs', ['send', snapshot], { stdio: ['ignore', 'pipe', 'inherit'] });
  const ssh = spawn(
    'ip',
    boxes
      .inSource([
        'ssh',
        ...['-i', path.join(boxes.work, key), '-p', '2222', '-o', 'BatchMode=yes', '-o', 'IdentitiesOnly=yes'],
        ...['-o', 'StrictHostKeyChecking=yes', '-o', `UserKnownHostsFile=${path.join(boxes.work, 'known_hosts')}`],
        `root@${targetAddress}`,
        remote,
      ])
      .slice(1),
    { stdio: [send.stdout, 'ignore', 'inherit'] },
  );
  // ssh has its own copy of the pipe now: ours would otherwise stay open, unread, for ever.
  send.stdout.destroy();
  const exit = (child: ChildProcess) => new Promise<number | null>((resolve) => child.once('exit', resolve));
  return Promise.all([exit(send), exit(ssh)]).then(([a, b]) => {
    if (a !== 0 || b !== 0) throw new Error(`zfs send | ssh | zfs receive exited ${a} and ${b}`);
    return performance.now() - started;
  });
}

async function destroy(dataset: string): Promise<void> {
  // zfs-fuse answers "dataset is busy" for a moment after a receive.
  for (let i = 0; ; i++) {
    try {
      sh(['zfs', 'destroy', '-r', '-f', dataset]);
      return;
    } catch (err) {
      if (i === 40) throw err;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

/**
 * A dataset of `sizeMiB` random data replicated between two network namespaces (the system
 * test's boxes) by the engine (replicateOnce: list both sides, plan, send into the forced command,
 * hold) against `zfs send | ssh | zfs receive` by hand, in turns, best of two each. The engine's
 * time is measured inside its process, without Node's start.
 */
export async function replicationBench(): Promise<BenchRow[]> {
  const poolSize = `${Math.ceil(sizeMiB * 1.5) + 256}M`;
  const boxes = new ReplicationBoxes({ sourcePoolSize: poolSize, targetPoolSize: poolSize });
  try {
    await boxes.open();
    const dataset = `${boxes.sourcePool}/bench`;
    sh(['zfs', 'create', dataset]);
    const folder = boxes.mountOf(dataset);
    for (let written = 0, i = 0; written < sizeMiB; written += 64, i++)
      writeFileSync(path.join(folder, `part${i}`), randomBytes(Math.min(64, sizeMiB - written) * MiB));
    sh(['zfs', 'snapshot', `${dataset}@bench`]);
    let ours = Infinity;
    let forced = Infinity;
    let plain = Infinity;
    for (let i = 0; i < 2; i++) {
      const { outcome, ms } = await boxes.replicate({ dataset, remoteSuffix: `ours${i}`, holdTag: 'cellar-bench' }).done;
      if (!outcome.ok) throw new Error(`the engine's run failed: ${outcome.code} ${outcome.detail}`);
      ours = Math.min(ours, ms);
      await destroy(`${boxes.parent}/ours${i}`);
      forced = Math.min(forced, await byHand(boxes, `${dataset}@bench`, 'pairing', `receive forced${i}`));
      await destroy(`${boxes.parent}/forced${i}`);
      plain = Math.min(plain, await byHand(boxes, `${dataset}@bench`, 'by-hand', `zfs receive ${boxes.parent}/plain${i}`));
      await destroy(`${boxes.parent}/plain${i}`);
    }
    sh(['zfs', 'release', 'cellar-bench', `${dataset}@bench`]);
    const name = `replication of a ${sizeMiB} MiB dataset between two namespaces`;
    return [
      // As the issue asks: the engine against the bare pipe into plain zfs receive.
      {
        name,
        value: rate(ours),
        unit: 'MB/s',
        baseline: rate(plain),
        baselineName: 'zfs send | ssh | zfs receive',
        target: 'ratio at least 0.9',
        ok: plain / ours >= 0.9,
      },
      // The same pipe into the forced command (bundled, as packaged): the engine's own cost alone.
      {
        name: `${name} (against the pipe into the forced command)`,
        value: rate(ours),
        unit: 'MB/s',
        baseline: rate(forced),
        baselineName: 'zfs send | ssh (pairing key) | receive',
        target: 'informational',
        ok: true,
      },
    ];
  } finally {
    await boxes.close();
  }
}
