import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ensureZfsFuse, LoopDisks, sh } from './zfs-fixture.ts';

const cache = '/var/cache/cellar-tests/bookworm-apt.tar';

/**
 * The cached Debian root as a tarball. mmdebstrap picks its output format from the target's
 * extension, so the partial file ends in `.tar` (a `.part` target became a folder); it is renamed
 * only once complete. A folder left by that older fixture is made again.
 */
function bookwormAptTarball(): void {
  const kind = statSync(cache, { throwIfNoEntry: false });
  if (kind?.isFile()) return;
  if (kind) rmSync(cache, { recursive: true, force: true });
  mkdirSync(path.dirname(cache), { recursive: true });
  const partial = `${cache}.partial-${process.pid}.tar`;
  try {
    execFileSync('mmdebstrap', ['--variant=apt', '--format=tar', '--quiet', 'bookworm', partial], {
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: 10 * 60_000,
    });
  } catch (err) {
    rmSync(partial, { recursive: true, force: true });
    throw err;
  }
  renameSync(partial, cache);
}

/** An apt archive in the root: a folder with a flat Packages list, labelled like one of Debian's. */
export interface TestArchive {
  name: string;
  /** `Debian-Security` marks the security archive, as on Debian's mirrors. */
  label: string;
  suite: string;
  debs: string[];
}

/**
 * A Debian root that stands in for the box: made by mmdebstrap (kept in /var/cache/cellar-tests,
 * since Debian's mirror may take minutes), unpacked onto a ZFS dataset on zfs-fuse that plays the
 * system dataset. apt and dpkg run in it through chroot, never on this machine. Needs root,
 * zfs-fuse and mmdebstrap.
 */
export class UpdateRoot {
  readonly disks: LoopDisks;
  readonly pool: string;
  /** The system dataset: the root lives on it. */
  readonly dataset: string;
  readonly root: string;

  private constructor(prefix: string) {
    this.disks = new LoopDisks(`${prefix}${process.pid}`);
    this.disks.add(1, '1G');
    this.pool = `${this.disks.prefix}a`;
    this.dataset = `${this.pool}/ROOT`;
    this.root = path.join(this.disks.work, 'mnt', this.pool, 'ROOT');
  }

  static async create(prefix: string): Promise<UpdateRoot> {
    if (process.getuid?.() !== 0) throw new Error('the updates system tests need root (zfs-fuse, chroot)');
    await ensureZfsFuse();
    bookwormAptTarball();
    const r = new UpdateRoot(prefix);
    try {
      r.disks.pools.add(r.pool);
      sh(['zpool', 'create', '-m', path.join(r.disks.work, 'mnt', r.pool), r.pool, r.disks.loops[0]!]);
      sh(['zfs', 'create', '-o', 'compression=on', r.dataset]);
      execFileSync('tar', ['-xf', cache, '-C', r.root], { stdio: 'ignore' });
      // Only the test's own archives: the root never reaches Debian's mirror.
      rmSync(path.join(r.root, 'etc/apt/sources.list.d'), { recursive: true, force: true });
      writeFileSync(path.join(r.root, 'etc/apt/sources.list'), '');
    } catch (err) {
      // A pool left imported would show in every later test's zpool list (zfs-fuse lists them all).
      await r.cleanup();
      throw err;
    }
    return r;
  }

  inRoot(args: string[]): string {
    return execFileSync('chroot', [this.root, ...args], { encoding: 'utf8', env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin' } });
  }

  installed(pkg: string): string {
    return this.inRoot(['dpkg-query', '-W', '-f', '${Version}', pkg]);
  }

  /** Installs package files with dpkg: what the box runs before the test starts. */
  dpkgInstall(debs: string[]): void {
    for (const deb of debs) {
      writeFileSync(path.join(this.root, 'tmp', path.basename(deb)), readFileSync(deb));
      this.inRoot(['dpkg', '-i', `/tmp/${path.basename(deb)}`]);
    }
  }

  /** Writes each archive as a flat repository under /srv in the root and makes apt's sources name exactly these. */
  archives(archives: TestArchive[]): void {
    const lines: string[] = [];
    for (const a of archives) {
      const dir = path.join(this.root, 'srv', a.name);
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      for (const deb of a.debs) writeFileSync(path.join(dir, path.basename(deb)), readFileSync(deb));
      const packages = execFileSync('dpkg-scanpackages', ['-m', '.', '/dev/null'], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
      writeFileSync(path.join(dir, 'Packages'), packages);
      const sum = createHash('sha256').update(packages).digest('hex');
      writeFileSync(
        path.join(dir, 'Release'),
        `Origin: Debian\nLabel: ${a.label}\nSuite: ${a.suite}\nCodename: ${a.suite}\nDate: Wed, 25 Nov 2026 00:00:00 UTC\nSHA256:\n ${sum} ${Buffer.byteLength(packages)} Packages\n`,
      );
      lines.push(`deb [trusted=yes] file:/srv/${a.name} ./`);
    }
    writeFileSync(path.join(this.root, 'etc/apt/sources.list'), `${lines.join('\n')}\n`);
  }

  cleanup(): Promise<void> {
    return this.disks.cleanup();
  }
}
