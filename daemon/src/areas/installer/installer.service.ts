import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type {
  InstallerFailure,
  InstallerKeyFingerprint,
  InstalledRoot,
  InstallerNetworkConfig,
  InstallerOptions,
  InstallerProgress,
  InstallerStatus,
  InstallPlan,
  InstallRequest,
  NetworkTestStatus,
} from '../../../../shared/src/api/installer/installer.ts';
import { languages } from '../../../../shared/src/api/system/system.ts';
import type { UserSummary } from '../../../../shared/src/api/identity/users.ts';
import type { Clock } from '../../core/clock.ts';
import type { Logger } from '../../core/logger.ts';
import { ProblemError } from '../../core/problem-error.ts';
import type { CommandRunner } from '../../host/command-runner.ts';
import { interfaceNames, readDefaultNetwork } from '../../host/installer/default-network.ts';
import { installSteps, planOf, targetLayout } from '../../host/installer/install-plan.ts';
import type { NetworkTester } from '../../host/installer/network-test.ts';
import type { TargetOwner } from '../../host/installer/target-accounts.ts';
import { hostNameOf, writeSystemFiles } from '../../host/installer/system-files.ts';
import { runInstallSteps, uuidOf } from '../../host/installer/target-install.ts';
import { listZones, zoneExists } from '../../host/time/zone-files.ts';
import { diskReasons, type DiskGuard } from '../storage/disk-guard.ts';
import type { InstallerClaim } from './claim.ts';
import { writeInstallId } from './install-id.ts';
import { regionCodes } from './regions.ts';

/** How long after the answer to POST /api/installer/reboot the restart begins. */
const rebootDelayMs = 500;

export interface InstallerServiceDeps {
  version: string;
  clock: Clock;
  logger: Logger;
  claim: InstallerClaim;
  guard: DiskGuard;
  minDiskBytes: number;
  /** Runs the installation's commands (logs them only when the installer does not apply). */
  runner: CommandRunner;
  network: NetworkTester;
  /** The system image the medium carries. */
  image: string;
  /** Where the target is mounted while the installer writes it. */
  targetDir: string;
  /** Creates the box's daemon data (first administrator, box name, language, region) in a data directory. */
  seedBox(dataDir: string, request: InstallRequest): Promise<UserSummary>;
  /** Makes the installed box's TLS authority in its data directory; answers the root (box-authority.ts). */
  makeAuthority(dataDir: string, hostname: string): Promise<InstalledRoot>;
  /** Makes the first administrator's system account inside the mounted target (host/installer/target-accounts.ts). */
  writeOwner(root: string, owner: TargetOwner): Promise<void>;
  reboot(): Promise<void>;
  /** The key the medium serves HTTPS with. */
  fingerprint: InstallerKeyFingerprint;
}

/**
 * The installation medium's one job: a claimed console picks a disk the Storage area's guard
 * allows and a configuration, and the installer writes the system onto it step by step.
 */
export class InstallerService {
  /** Made at start so the medium already announces the id the installed box will have. */
  readonly installId = randomUUID();
  private install: {
    state: 'installing' | 'done' | 'failed';
    plan: InstallPlan;
    progress: InstallerProgress | null;
    failure: InstallerFailure | null;
    root: InstalledRoot | null;
  } | null = null;
  private running: Promise<void> | null = null;
  /** The restart asked for, once: a second request while it waits starts no second one. */
  private rebooting: Promise<void> | null = null;
  /** An install request between its first check and its start: its checks wait on the host, and a second request must not pass them too. */
  private starting = false;

  constructor(private readonly deps: InstallerServiceDeps) {}

  status(): InstallerStatus {
    const expiresAt = this.deps.claim.expiresAt();
    const claimExpiresAt = expiresAt === null ? null : new Date(expiresAt).toISOString();
    const base = { version: this.deps.version, fingerprint: this.deps.fingerprint, claimExpiresAt };
    if (this.install) {
      const { state, plan, progress, failure, root } = this.install;
      // The root only of a finished installation: one that failed later may leave no such box.
      return { ...base, state, plan, progress, failure, installedRoot: state === 'done' ? root : null };
    }
    return { ...base, state: expiresAt === null ? 'waiting' : 'claimed', plan: null, progress: null, failure: null, installedRoot: null };
  }

  claim(given: string | undefined, from: string): InstallerStatus {
    const grant = this.deps.claim.claim(given, from);
    return { ...this.status(), claimSecret: grant.secret, claimCode: grant.code };
  }

  async options(): Promise<InstallerOptions> {
    const verdicts = await this.verdicts();
    return {
      disks: verdicts.map(({ facts, reasons }) => ({
        name: facts.device.name,
        path: facts.device.path,
        sizeBytes: facts.device.sizeBytes,
        model: facts.device.model,
        usable: reasons.length === 0,
        reasons,
      })),
      minDiskBytes: this.deps.minDiskBytes,
      fileSystems: ['ext4', 'zfs'],
      languages: [...languages],
      regions: regionCodes(),
      timeZones: await listZones('/'),
      defaultNetwork: await readDefaultNetwork(this.deps.runner),
    };
  }

  networkTest(): NetworkTestStatus {
    return this.deps.network.status();
  }

  async startNetworkTest(config: InstallerNetworkConfig): Promise<NetworkTestStatus> {
    if (this.starting || this.install?.state === 'installing') throw new ProblemError('installer.network.busy');
    return this.deps.network.start(config, await interfaceNames(this.deps.runner));
  }

  async startInstall(request: InstallRequest): Promise<InstallerStatus> {
    if (this.starting) throw new ProblemError('installer.install.running', { state: 'installing' });
    if (this.install && this.install.state !== 'failed') throw new ProblemError('installer.install.running', { state: this.install.state });
    if (this.deps.network.busy()) throw new ProblemError('installer.network.busy');
    this.starting = true;
    try {
      return await this.begin(request);
    } finally {
      this.starting = false;
    }
  }

  private async begin(request: InstallRequest): Promise<InstallerStatus> {
    // grub-install needs udev only at the end, where its absence would leave the disk without a BIOS loader.
    if (this.deps.runner.apply) await this.deps.runner.read(['udevadm', '--version']);
    const devicePath = await this.checkDisk(request.disk);
    if (!(await stat(this.deps.image).catch(() => null))?.isFile()) throw new ProblemError('installer.image.missing', { path: this.deps.image });
    if (!(await zoneExists('/', request.timeZone))) throw new ProblemError('system.zone.unknown', { zone: request.timeZone });
    if (request.fileSystem === 'zfs') await this.requireZfs();
    const layout = targetLayout(devicePath, this.deps.targetDir);
    const steps = installSteps(layout, request.fileSystem, this.deps.image);
    const plan = planOf(layout, request.fileSystem, steps);
    await this.deps.runner.requireTools(plan.commands.map((argv) => argv[0]!));
    this.install = { state: 'installing', plan, progress: null, failure: null, root: null };
    const current = this.install;
    this.deps.logger.info('installation started', { component: 'installer', disk: devicePath, fileSystem: request.fileSystem });
    const hooks = {
      progress: (done: number, total: number, step: string) => {
        current.progress = { done, total, unit: 'steps' as const, step };
      },
      configure: async () => {
        const root = layout.target;
        await writeSystemFiles(root, layout.efiStaging, {
          fileSystem: request.fileSystem,
          hostName: hostNameOf(request.boxName),
          timeZone: request.timeZone,
          systemUuid: request.fileSystem === 'ext4' ? await uuidOf(this.deps.runner, layout.system) : null,
          efiUuid: await uuidOf(this.deps.runner, layout.efi),
          network: request.network,
        });
        const dataDir = path.join(root, 'var/lib/cellar');
        const owner = await this.deps.seedBox(dataDir, request);
        current.root = await this.deps.makeAuthority(dataDir, hostNameOf(request.boxName));
        await this.deps.writeOwner(root, { username: owner.username, uid: owner.uid, displayName: owner.displayName, password: request.admin.password });
        await writeInstallId(dataDir, { installId: this.installId, installedAt: new Date(this.deps.clock.now()).toISOString() });
      },
    };
    const work = async () => {
      // The answer went out already: ask the guard once more right before the disk is touched.
      await this.checkDisk(request.disk);
      await runInstallSteps(steps, layout, request.fileSystem, this.deps.runner, hooks);
    };
    this.running = work().then(
      () => {
        current.state = 'done';
        this.deps.logger.info('installation done', { component: 'installer', disk: devicePath });
      },
      (err: unknown) => {
        current.state = 'failed';
        const step = current.progress?.step ?? null;
        const detail = err instanceof Error ? err.message : String(err);
        current.failure = { code: err instanceof ProblemError ? err.code : 'installer.step.failed', detail, step };
        this.deps.logger.error('installation failed', { component: 'installer', step, error: detail });
      },
    );
    return this.status();
  }

  /** Waits for a running installation (tests, shutdown). */
  async settled(): Promise<void> {
    await this.running;
    await this.rebooting;
    await this.deps.network.settled();
  }

  /**
   * Restarts into the installed system once `answered` settles (the answer to the console is out):
   * a restart begun before would cut the connection, and the console would see it reset instead
   * of its 202. Refused while an installation runs.
   */
  reboot(answered: Promise<void>): void {
    if (this.install?.state === 'installing') throw new ProblemError('installer.install.running', { state: 'installing' });
    this.deps.logger.info('rebooting into the installed system', { component: 'installer' });
    this.rebooting ??= answered
      // A moment for the answer's last packets to leave before the network goes down.
      .then(() => new Promise((resolve) => setTimeout(resolve, rebootDelayMs)))
      .then(() => this.deps.reboot())
      .catch((err: unknown) => {
        this.rebooting = null;
        this.deps.logger.error('reboot failed', { component: 'installer', error: String(err) });
      });
  }

  private async verdicts() {
    const facts = await this.deps.guard.facts();
    return facts.map((f) => ({ facts: f, reasons: diskReasons(f, this.deps.minDiskBytes) }));
  }

  /** The disk's device path when the guard allows it; refused with the guard's reasons otherwise. */
  private async checkDisk(name: string): Promise<string> {
    const found = (await this.verdicts()).find((v) => v.facts.device.name === name);
    if (!found) throw new ProblemError('installer.disk.unknown', { disk: name });
    if (found.reasons.length > 0) throw new ProblemError('installer.disk.refused', { disk: name, reasons: found.reasons });
    return found.facts.device.path;
  }

  private async requireZfs(): Promise<void> {
    try {
      await this.deps.runner.read(['zpool', 'list', '-H'], { allowFailure: true });
    } catch (err) {
      if (err instanceof ProblemError && err.code === 'host.tool.missing')
        throw new ProblemError('installer.filesystem.unavailable', { fileSystem: 'zfs', package: 'zfsutils-linux' });
      throw err;
    }
  }
}
