import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildSystemImage } from '../../build/scripts/build-system-image.js';

const sh = (argv: string[]) => execFileSync(argv[0]!, argv.slice(1), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const quiet = (argv: string[]) => {
  try {
    sh(argv);
  } catch {
    // Cleanup goes on past what is already gone.
  }
};

/** Kept between runs: mmdebstrap takes from seconds to minutes, depending on the mirror. */
const imageCache = '/var/tmp/cellar-test-images/essential-accounts-bookworm.tar';

/**
 * The small Debian image the installer tests and benchmark write (build/scripts/build-system-image.js):
 * the essential set plus what the installer runs inside the target to make the owner's accounts
 * (passwd's useradd and chpasswd, Samba's smbpasswd; pdbedit lets tests read the passdb back).
 * The box's image has them through the Cellar package's dependencies.
 */
export function systemTestImage(): string {
  if (existsSync(imageCache)) return imageCache;
  const partial = `${imageCache}.partial-${process.pid}.tar`;
  buildSystemImage({ out: partial, variant: 'essential', packages: ['passwd', 'samba'] });
  renameSync(partial, imageCache);
  return imageCache;
}

/**
 * Loop devices with partition scanning on sparse files, and the mounts a test makes below its
 * folder; cleanup unmounts and detaches everything, also after a failure.
 */
export class InstallerDisks {
  readonly work = mkdtempSync(path.join(tmpdir(), 'cellar-installer-disks-'));
  readonly loops: string[] = [];
  private readonly mounts: string[] = [];

  constructor() {
    if (process.getuid?.() !== 0) throw new Error('installing onto loop devices needs root');
  }

  add(size: string): string {
    const file = path.join(this.work, `disk${this.loops.length}.img`);
    sh(['truncate', '-s', size, file]);
    const loop = sh(['losetup', '-P', '-f', '--show', file]).trim();
    this.loops.push(loop);
    return loop;
  }

  mount(device: string, name: string): string {
    const dir = path.join(this.work, name);
    sh(['mkdir', '-p', dir]);
    sh(['mount', device, dir]);
    this.mounts.push(dir);
    return dir;
  }

  cleanup(): void {
    for (const dir of this.mounts.reverse()) quiet(['umount', '-R', dir]);
    // The installer's own target mount, should a failed test leave it.
    quiet(['umount', '-R', path.join(this.work, 'data/target')]);
    for (const loop of this.loops) quiet(['losetup', '-d', loop]);
    rmSync(this.work, { recursive: true, force: true });
  }
}
