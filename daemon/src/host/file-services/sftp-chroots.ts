import { chmod, mkdir, readdir, readFile, rmdir } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../../core/logger.ts';
import type { CommandRunner } from '../command-runner.ts';
import type { SftpMount } from './sshd-conf.ts';

/** Mount points listed in /proc/self/mountinfo (field 5, octal escapes undone). */
export function mountPoints(mountinfo: string): string[] {
  return mountinfo
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split(' ')[4] ?? '')
    .map((field) => field.replace(/\\([0-7]{3})/g, (_m, octal: string) => String.fromCharCode(parseInt(octal, 8))));
}

const inside = (child: string, parent: string) => child.startsWith(parent.endsWith('/') ? parent : `${parent}/`);

/**
 * Keeps the chroots under the base folder equal to the wanted bind mounts: stale mounts are
 * detached (lazily, so an open session cannot block a revocation), missing ones made, and
 * folders no longer used removed with rmdir only, which never deletes anything inside a
 * share. The chroot folders are root-owned 0755, as sshd demands.
 */
export class SftpChroots {
  /** Mount point -> source (and ` ro` when read-only), as mounted by this process. */
  private readonly mounted = new Map<string, string>();

  constructor(
    private readonly runner: CommandRunner,
    private readonly logger: Logger,
    private readonly base: string,
  ) {}

  async reconcile(wanted: readonly SftpMount[]): Promise<void> {
    if (!this.runner.apply) {
      this.logger.info('would set up SFTP chroots', { component: 'file-services', mounts: wanted });
      return;
    }
    const want = new Map(wanted.map((m) => [m.target, mountKey(m)]));
    // Deepest first, so a mount inside another one is detached before its parent.
    const current = (await this.currentMounts()).sort((a, b) => b.length - a.length);
    for (const target of current) {
      if (want.get(target) !== undefined && want.get(target) === this.mounted.get(target)) continue;
      await this.runner.run(['umount', '--lazy', target]);
      this.mounted.delete(target);
    }
    // chmod after mkdir: the service's UMask=0027 would leave 0750, which the user cannot list after the chroot.
    await mkdir(this.base, { recursive: true, mode: 0o755 });
    await chmod(this.base, 0o755);
    const stillMounted = new Set(await this.currentMounts());
    for (const mount of wanted) {
      const { username, target, source } = mount;
      if (stillMounted.has(target)) continue;
      await mkdir(path.posix.join(this.base, username), { mode: 0o755 }).catch(ignoreExists);
      await chmod(path.posix.join(this.base, username), 0o755);
      await mkdir(target, { mode: 0o755 }).catch(ignoreExists);
      await chmod(target, 0o755);
      if (mount.readOnly) await this.mountReadOnly(source, target);
      else await this.runner.run(['mount', '--bind', source, target]);
      this.mounted.set(target, mountKey(mount));
    }
    await this.removeUnused(new Set(wanted.map((m) => m.target)));
  }

  /**
   * A bind mount is made writable and only a remount makes it read-only: made in the chroot, it
   * would stand writable for a moment inside a session already open. So it is made and turned
   * read-only in a staging folder no chroot contains, and bound from there (a bind keeps the
   * read-only flag).
   */
  private async mountReadOnly(source: string, target: string): Promise<void> {
    const staging = path.posix.join(this.base, '.read-only');
    await mkdir(staging, { mode: 0o700 }).catch(ignoreExists);
    await this.runner.run(['mount', '--bind', source, staging]);
    try {
      await this.runner.run(['mount', '-o', 'remount,bind,ro', staging]);
      await this.runner.run(['mount', '--bind', staging, target]);
    } finally {
      await this.runner.run(['umount', staging]);
      await rmdir(staging);
    }
  }

  /** Detaches every mount under the base (daemon stop, tests). */
  async clear(): Promise<void> {
    await this.reconcile([]);
  }

  private async currentMounts(): Promise<string[]> {
    return mountPoints(await readFile('/proc/self/mountinfo', 'utf8')).filter((p) => inside(p, this.base));
  }

  private async removeUnused(targets: Set<string>): Promise<void> {
    const users = await readdir(this.base, { withFileTypes: true });
    for (const user of users.filter((e) => e.isDirectory())) {
      const userDir = path.posix.join(this.base, user.name);
      for (const entry of await readdir(userDir, { withFileTypes: true })) {
        const target = path.posix.join(userDir, entry.name);
        if (entry.isDirectory() && !targets.has(target)) await rmdir(target).catch((err) => this.keep(target, err));
      }
      if ((await readdir(userDir)).length === 0) await rmdir(userDir).catch((err) => this.keep(userDir, err));
    }
  }

  private keep(folder: string, err: unknown): void {
    this.logger.warn('SFTP chroot folder kept', { component: 'file-services', folder, error: err instanceof Error ? err.message : String(err) });
  }
}

function mountKey(m: SftpMount): string {
  return m.readOnly ? `${m.source} ro` : m.source;
}

function ignoreExists(err: NodeJS.ErrnoException): void {
  if (err.code !== 'EEXIST') throw err;
}
