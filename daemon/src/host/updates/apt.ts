import { copyFile, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { DistributionUpdate } from '../../../../shared/src/api/updates/updates.ts';
import { ProblemError } from '../../core/problem-error.ts';
import { CommandError, type CommandRunner } from '../command-runner.ts';

/** `Inst libssl3 [3.0.11-1~deb12u1] (3.0.11-1~deb12u2 Debian-Security:12/stable-security [amd64])` of `apt-get -s`. */
const instLine = /^Inst (\S+) (?:\[([^\]]*)\] )?\((\S+) ([^[)]*?)\s*(?:\[[^\]]*\])?\)/;

/** What `apt-get -s upgrade` would install; the archive names a security update (Debian-Security, bookworm-security). */
export function parseSimulation(stdout: string): DistributionUpdate[] {
  const updates: DistributionUpdate[] = [];
  for (const line of stdout.split('\n')) {
    const m = instLine.exec(line);
    if (!m) continue;
    updates.push({ name: m[1]!, from: m[2] ?? '', to: m[3]!, security: /security/i.test(m[4] ?? '') });
  }
  return updates;
}

export interface AptHostOptions {
  /** A Debian root the commands run in (`chroot <root>`): the tests' stand-in for the box. Null is this machine. */
  root: string | null;
}

// Never a question on a terminal; the package's postinst leaves the restart to the daemon (it restarts itself once the job ended).
const env = { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', DEBIAN_FRONTEND: 'noninteractive', CELLAR_SELF_UPDATE: '1', LC_ALL: 'C.UTF-8' };
const keepConfig = ['-o', 'Dpkg::Options::=--force-confdef', '-o', 'Dpkg::Options::=--force-confold'];
const incoming = '/var/cache/cellar/updates';

/** apt and dpkg of the box: what is installed and upgradable, and installing. */
export class AptHost {
  constructor(
    private readonly runner: CommandRunner,
    private readonly options: AptHostOptions,
  ) {}

  private argv(argv: string[]): string[] {
    return this.options.root === null ? argv : ['chroot', this.options.root, ...argv];
  }

  /** The installed version of a package, or null when it is not installed. Read even in development mode. */
  async installedVersion(pkg: string): Promise<string | null> {
    const found = await this.runner.read(this.argv(['dpkg-query', '-W', '-f', '${db:Status-Status} ${Version}', pkg]), { allowFailure: true, env });
    const m = /^installed (\S+)$/.exec(found.stdout.trim());
    return found.exitCode === 0 && m ? m[1]! : null;
  }

  /** `apt-get update`, then what `apt-get upgrade` would do, without doing it. A failure of apt is a problem the check keeps. */
  async upgradable(signal?: AbortSignal): Promise<DistributionUpdate[]> {
    try {
      await this.runner.run(this.argv(['apt-get', '-q', 'update']), { timeoutMs: 5 * 60_000, env, signal });
      const sim = await this.runner.run(this.argv(['apt-get', '-s', '-q', '-o', 'Debug::NoLocking=1', 'upgrade', '--with-new-pkgs']), { env, signal });
      return parseSimulation(sim.stdout);
    } catch (err) {
      if (!(err instanceof CommandError)) throw err;
      throw new ProblemError('system.distribution.failed', {}, { detail: err.message, cause: err });
    }
  }

  /** Installs a package file (with the dependencies it names) through apt. */
  async installFile(file: string, signal?: AbortSignal): Promise<void> {
    const inRoot = path.join(incoming, path.basename(file));
    const target = this.options.root === null ? inRoot : path.join(this.options.root, inRoot);
    await mkdir(path.dirname(target), { recursive: true });
    if (target !== file) await copyFile(file, target);
    try {
      await this.runner.run(this.argv(['apt-get', '-y', '-q', ...keepConfig, 'install', inRoot]), { timeoutMs: 30 * 60_000, env, signal });
    } finally {
      await rm(target, { force: true });
    }
  }

  /** Upgrades the distribution's packages: all, or only the named ones (the security updates). */
  async upgrade(only: string[] | null, signal?: AbortSignal): Promise<void> {
    const argv = only === null ? ['upgrade', '--with-new-pkgs'] : ['install', '--only-upgrade', ...only];
    await this.runner.run(this.argv(['apt-get', '-y', '-q', ...keepConfig, ...argv]), { timeoutMs: 60 * 60_000, env, signal });
  }
}
