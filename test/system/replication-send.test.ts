import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ReplicateOutcome } from '../../daemon/src/host/zfs-replication/replicate.ts';
import type { SendProgress } from '../../daemon/src/host/zfs-replication/run-send.ts';
import { ReplicationBoxes } from '../helpers/replication-boxes.ts';

const sh = (argv: string[]) => execFileSync(argv[0]!, argv.slice(1), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
const MiB = 1024 * 1024;

/** sha256 of every file below `root` by relative path: a tree's content, compared across boxes. */
function digest(root: string, rel = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(path.join(root, rel)).sort()) {
    const file = path.join(rel, name);
    if (statSync(path.join(root, file)).isDirectory()) Object.assign(out, digest(root, file));
    else
      out[file] = createHash('sha256')
        .update(readFileSync(path.join(root, file)))
        .digest('hex');
  }
  return out;
}

/**
 * A snapshot's files through a clone (zfs-fuse has no `.zfs/snapshot`). Reading the target's live
 * file system would change it (atime), and zfs receive without -F then refuses the next stream.
 */
async function snapshotDigest(snapshot: string): Promise<Record<string, string>> {
  const clone = `${snapshot.split('/')[0]}/check${randomBytes(3).toString('hex')}`;
  sh(['zfs', 'clone', snapshot, clone]);
  const files = digest(sh(['zfs', 'get', '-H', '-o', 'value', 'mountpoint', clone]).trim());
  // zfs-fuse answers "dataset is busy" for a moment after a clone's files were read.
  for (let i = 0; ; i++) {
    try {
      sh(['zfs', 'destroy', '-f', clone]);
      return files;
    } catch (err) {
      if (i === 40) throw err;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

const userrefs = (snapshot: string) => Number(sh(['zfs', 'get', '-H', '-p', '-o', 'value', 'userrefs', snapshot]).trim());
const targetNames = (dataset: string) => {
  try {
    return sh(['zfs', 'list', '-H', '-o', 'name', '-r', '-t', 'all', dataset]).trim().split('\n');
  } catch {
    return [];
  }
};

function expectOk(outcome: ReplicateOutcome): asserts outcome is Extract<ReplicateOutcome, { ok: true }> {
  expect(outcome.ok, JSON.stringify(outcome)).to.equal(true);
}

/**
 * The send/receive engine between two network namespaces joined by a veth pair: the source runs
 * zfs send and ssh (in its namespace), the target's sshd runs the forced command into its pool.
 */
describe('system: replication send and receive between two namespaces', function () {
  this.timeout(240_000);
  const boxes = new ReplicationBoxes({ sourcePoolSize: '512M', targetPoolSize: '128M' });
  const dataset = () => `${boxes.sourcePool}/photos`;
  const files = () => boxes.mountOf(dataset());
  const holdTag = 'cellar-replication-test';
  const run = (extra: { remoteSuffix?: string; bandwidthLimit?: number; dataset?: string } = {}, onProgress?: (p: SendProgress) => void) =>
    boxes.replicate({ dataset: dataset(), remoteSuffix: 'photos', holdTag, ...extra }, onProgress);

  before(async () => {
    await boxes.open();
    sh(['zfs', 'create', dataset()]);
    mkdirSync(path.join(files(), 'album'));
    writeFileSync(path.join(files(), 'album', 'a.jpg'), randomBytes(2 * MiB));
    writeFileSync(path.join(files(), 'album', 'b.jpg'), randomBytes(300_000));
    writeFileSync(path.join(files(), 'notes.txt'), 'first\n');
    sh(['zfs', 'snapshot', `${dataset()}@r1`]);
  });

  after(async () => {
    await boxes.close();
  });

  it('sends in full, then only the changes; the target snapshots hold the same files by checksum, the hold follows', async () => {
    const progress: SendProgress[] = [];
    const first = (await run({}, (p) => progress.push(p)).done).outcome;
    expectOk(first);
    expect(first).to.include({ kind: 'full', snapshot: `${dataset()}@r1` });
    expect(await snapshotDigest(`${boxes.parent}/photos@r1`)).to.deep.equal(await snapshotDigest(`${dataset()}@r1`));
    expect(progress.at(-1)?.bytes).to.equal(first.bytes);
    // zfs-fuse has no `send -nP`: the estimate from space accounting is near the real stream.
    expect(progress.at(-1)!.estimate / first.bytes).to.be.within(0.9, 1.1);
    expect(userrefs(`${dataset()}@r1`)).to.equal(1);

    writeFileSync(path.join(files(), 'notes.txt'), 'second\n');
    rmSync(path.join(files(), 'album', 'b.jpg'));
    writeFileSync(path.join(files(), 'album', 'c.jpg'), randomBytes(1 * MiB));
    sh(['zfs', 'snapshot', `${dataset()}@r2`]);
    const second = (await run().done).outcome;
    expectOk(second);
    expect(second).to.include({ kind: 'incremental', base: `${dataset()}@r1`, snapshot: `${dataset()}@r2` });
    expect(second.bytes).to.be.below(first.bytes);
    const r2 = await snapshotDigest(`${boxes.parent}/photos@r2`);
    expect(r2).to.deep.equal(await snapshotDigest(`${dataset()}@r2`));
    expect(Object.keys(r2)).to.deep.equal(['album/a.jpg', 'album/c.jpg', 'notes.txt']);
    expect([userrefs(`${dataset()}@r1`), userrefs(`${dataset()}@r2`)]).to.deep.equal([0, 1]);
    // A held base cannot be destroyed by the source's own retention.
    expect(() => sh(['zfs', 'destroy', `${dataset()}@r2`])).to.throw(/busy/);

    const again = (await run().done).outcome;
    expectOk(again);
    expect(again.kind).to.equal('up-to-date');
  });

  it('cancel and a link cut mid-send each end the run with their code, leave no half-received snapshot, and the next run completes', async () => {
    writeFileSync(path.join(files(), 'video.mp4'), randomBytes(16 * MiB));
    sh(['zfs', 'snapshot', `${dataset()}@r3`]);

    const cancelled = run({ bandwidthLimit: 2 * MiB }, (p) => p.bytes > MiB && cancelled.cancel());
    const c = (await cancelled.done).outcome;
    expect(c).to.include({ ok: false, code: 'cancelled' });

    let cut = false;
    const cutRun = run({ bandwidthLimit: 2 * MiB }, (p) => {
      if (!cut && p.bytes > 2 * MiB) {
        cut = true;
        boxes.setLink(false);
      }
    });
    const lost = (await cutRun.done).outcome;
    expect(cut).to.equal(true);
    expect(lost).to.include({ ok: false, code: 'connection-lost' });
    expect(targetNames(`${boxes.parent}/photos`)).to.not.include(`${boxes.parent}/photos@r3`);
    boxes.setLink(true);

    // The target's sshd notices the dead session (ClientAlive) and its zfs receive ends; until then
    // the half-received stream holds the dataset, so the next run may need a few seconds.
    let next: ReplicateOutcome | null = null;
    for (let i = 0; i < 12 && !next?.ok; i++) {
      next = (await run().done).outcome;
      if (!next.ok) await new Promise((r) => setTimeout(r, 3000));
    }
    expectOk(next!);
    expect(next).to.include({ kind: 'incremental', base: `${dataset()}@r2`, snapshot: `${dataset()}@r3` });
    expect(await snapshotDigest(`${boxes.parent}/photos@r3`)).to.deep.equal(await snapshotDigest(`${dataset()}@r3`));
    expect(targetNames(`${boxes.parent}/photos`).filter((n) => n.includes('%'))).to.deep.equal([]);
  });

  it('a full target pool ends the run with target-pool-full and nothing received stays', async () => {
    const big = `${boxes.sourcePool}/big`;
    sh(['zfs', 'create', big]);
    const room = Number(sh(['zfs', 'get', '-H', '-p', '-o', 'value', 'available', boxes.targetPool]).trim());
    for (let i = 0; i * 8 * MiB < room + 8 * MiB; i++) writeFileSync(path.join(boxes.mountOf(big), `part${i}`), randomBytes(8 * MiB));
    sh(['zfs', 'snapshot', `${big}@full`]);
    const outcome = (await run({ dataset: big, remoteSuffix: 'big' }).done).outcome;
    expect(outcome).to.include({ ok: false, code: 'target-pool-full' });
    expect(targetNames(`${boxes.parent}/big`)).to.deep.equal([]);
  });

  it('the forced command refuses a dataset outside the parent, and a target without a common snapshot is refused', async () => {
    const escape = (await run({ remoteSuffix: 'photos/../../../etc' }).done).outcome;
    expect(escape).to.include({ ok: false, code: 'refused-by-target' });
    // A dataset of another source already on the target under that name: nothing in common by guid.
    const other = `${boxes.sourcePool}/other`;
    sh(['zfs', 'create', other]);
    sh(['zfs', 'snapshot', `${other}@x`]);
    expectOk((await run({ dataset: other, remoteSuffix: 'shared' }).done).outcome);
    const unrelated = (await run({ remoteSuffix: 'shared' }).done).outcome;
    expect(unrelated).to.include({ ok: false, code: 'no-common-snapshot' });
  });

  it('a target changed by hand ends with target-modified, a removed pairing key with pairing-refused', async () => {
    const other = `${boxes.sourcePool}/other`;
    writeFileSync(path.join(boxes.mountOf(`${boxes.parent}/shared`), 'by-hand.txt'), 'changed on the target\n');
    sh(['zfs', 'snapshot', `${other}@y`]);
    const modified = (await run({ dataset: other, remoteSuffix: 'shared' }).done).outcome;
    expect(modified).to.include({ ok: false, code: 'target-modified' });
    // Ending the pairing on the target removes its key's line.
    const keys = path.join(boxes.work, 'authorized_keys');
    const lines = readFileSync(keys, 'utf8');
    writeFileSync(
      keys,
      lines
        .split('\n')
        .filter((l) => !l.includes('command='))
        .join('\n'),
      { mode: 0o600 },
    );
    try {
      const removed = (await run().done).outcome;
      expect(removed).to.include({ ok: false, code: 'pairing-refused' });
    } finally {
      writeFileSync(keys, lines, { mode: 0o600 });
    }
  });

  it('a changed host key is refused with host-key-changed, an unknown one with host-key-unknown', async () => {
    await boxes.replaceHostKey();
    const changed = (await run().done).outcome;
    expect(changed).to.include({ ok: false, code: 'host-key-changed' });
    const empty = path.join(boxes.work, 'empty_known_hosts');
    writeFileSync(empty, '');
    const unknown = (await boxes.replicate({ dataset: dataset(), remoteSuffix: 'photos', holdTag, target: boxes.target(empty) }).done).outcome;
    expect(unknown).to.include({ ok: false, code: 'host-key-unknown' });
  });
});
