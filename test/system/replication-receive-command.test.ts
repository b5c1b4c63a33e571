import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ensureZfsFuse, LoopDisks, sh } from './zfs-fixture.ts';

const command = path.resolve('daemon/src/areas/replication/receive-command.ts');

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the forced command as sshd would: the pairing's arguments, the client's wish in SSH_ORIGINAL_COMMAND, stdin from `input`. */
function forced(original: string | undefined, parent: string, input?: string[], env: NodeJS.ProcessEnv = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const childEnv: NodeJS.ProcessEnv = { PATH: process.env.PATH, ...env };
    if (original !== undefined) childEnv.SSH_ORIGINAL_COMMAND = original;
    const child = spawn(process.execPath, ['--import', 'tsx', command, 'pairing-1', parent], { env: childEnv, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
    if (input) {
      // The stream of `zfs send`, piped in as the ssh channel would.
      const send = spawn(input[0]!, input.slice(1), { stdio: ['ignore', 'pipe', 'inherit'] });
      send.stdout.pipe(child.stdin);
    } else child.stdin.end();
  });
}

describe('replication: the forced command on a real zfs-fuse pool', function () {
  this.timeout(120_000);
  let disks: LoopDisks;
  let pool = '';

  before(async function () {
    if (process.getuid?.() !== 0) throw new Error('needs root (zfs-fuse on loop devices)');
    await ensureZfsFuse();
    disks = new LoopDisks(`crr${process.pid}`);
    disks.add(1);
    pool = `${disks.prefix}p`;
    disks.pools.add(pool);
    sh(['zpool', 'create', '-m', path.join(disks.work, pool), pool, disks.loops[0]!]);
    sh(['zfs', 'create', `${pool}/source`]);
    sh(['zfs', 'create', `${pool}/replica`]);
    writeFileSync(path.join(disks.work, pool, 'source', 'note.txt'), 'kept across boxes\n');
    sh(['zfs', 'snapshot', `${pool}/source@one`]);
  });

  after(async () => {
    await disks?.cleanup();
  });

  it('receives a zfs send stream below the parent and lists its snapshots', async () => {
    const received = await forced('receive photos', `${pool}/replica`, ['zfs', 'send', `${pool}/source@one`]);
    expect(received.code, received.stderr).to.equal(0);
    expect(readFileSync(path.join(disks.work, pool, 'replica', 'photos', 'note.txt'), 'utf8')).to.equal('kept across boxes\n');
    const listed = await forced('list photos', `${pool}/replica`);
    expect(listed.code, listed.stderr).to.equal(0);
    // Lines of name, property and value: the snapshot with its exact guid (matched across boxes), txg and creation.
    const snapshotLines = listed.stdout.split('\n').filter((l) => l.includes('@'));
    expect(snapshotLines.map((l) => l.split('\t').slice(0, 2).join(' '))).to.deep.equal([
      `${pool}/replica/photos@one guid`,
      `${pool}/replica/photos@one createtxg`,
      `${pool}/replica/photos@one creation`,
    ]);
    expect(snapshotLines[0]).to.match(/\tguid\t\d+$/);
    expect(snapshotLines[0]!.split('\t')[2]).to.equal(sh(['zfs', 'get', '-H', '-p', '-o', 'value', 'guid', `${pool}/source@one`]).trim());
  });

  for (const [what, original] of [
    ['another command', `zfs destroy -r ${pool}`],
    ['a dataset escaping the parent', 'receive ../source'],
    ['a snapshot name', 'receive photos@one'],
    ['a shell metacharacter', 'receive x;zfs destroy -r x'],
    ['no command (an interactive login)', undefined],
  ] as const) {
    it(`refuses ${what} with exit 2 and changes nothing`, async () => {
      const before = sh(['zfs', 'list', '-H', '-o', 'name', '-r', '-t', 'all', pool]);
      const ran = await forced(original, `${pool}/replica`, ['zfs', 'send', `${pool}/source@one`]);
      expect(ran.code).to.equal(2);
      expect(ran.stderr).to.match(/^cellar: refused: /);
      expect(ran.stdout).to.equal('');
      expect(sh(['zfs', 'list', '-H', '-o', 'name', '-r', '-t', 'all', pool])).to.equal(before);
    });
  }

  it('refuses a terminal (SSH_TTY set) even for a well-formed command', async () => {
    const ran = await forced('list photos', `${pool}/replica`, undefined, { SSH_TTY: '/dev/pts/9' });
    expect(ran.code).to.equal(2);
    expect(ran.stderr).to.contain('terminal');
  });
});
