import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Job } from '../../../../shared/src/api/jobs/jobs.ts';
import type { BoxRelease, InstallUpdateRequest, UpdateSettings, UpdateStatus, UpdatesNotApplicable } from '../../../../shared/src/api/updates/updates.ts';
import type { Clock } from '../../core/clock.ts';
import type { Logger } from '../../core/logger.ts';
import type { Principal } from '../../core/principal.ts';
import { ProblemError } from '../../core/problem-error.ts';
import type { TrustedKey } from '../../core/signed-index.ts';
import { boundedBody } from '../../http/bounded-body.ts';
import type { AptHost } from '../../host/updates/apt.ts';
import type { SystemSnapshots } from '../../host/updates/system-snapshots.ts';
import { parseCompactUtc } from '../storage/snapshot-names.ts';
import type { UpdateChannelReader } from './channel.ts';
import { packageFor, requireNewer } from './signed-release.ts';
import { readBundle } from './update-bundle.ts';
import type { UpdatesStateStore } from './updates-state.ts';

export const updateSnapshotPrefix = 'service-update-';
export const installJobKind = 'system.updates.install';
export const restoreJobKind = 'system.updates.restore';

export interface InstallJobParams extends InstallUpdateRequest {
  /** Only these distribution packages (the automatic security updates); null upgrades all. */
  only: string[] | null;
}

export interface UpdatesServiceDeps {
  state: UpdatesStateStore;
  apt: AptHost;
  snapshots: SystemSnapshots;
  /** Null where no channel is read: a development daemon without a test channel. */
  channel: UpdateChannelReader | null;
  keys: readonly TrustedKey[];
  enqueue(kind: string, params: unknown, userId: number | null): Promise<Job>;
  clock: Clock;
  logger: Logger;
  publish(type: 'changed' | 'restarting', data: unknown): void;
  /** Whether updates may apply here at all: a box, or a test that says so. */
  applyConfigured: boolean;
  packageName: string;
  /** The running daemon's version and commit: what counts as installed where the package is not. */
  product: { version: string; commit: () => Promise<string | null> };
  architecture: string;
  /** Folder for the uploaded bundle and downloads. */
  workDir: string;
  /** The daemon's data directory: it must not go back with the system datasets (docs/updates.md). */
  dataDir: string;
}

/** The rules of updates: status, check, settings, the uploaded bundle, and starting install and restore jobs. */
export class UpdatesService {
  /** The install or restore job running now (one at a time). */
  running: { jobId: number; kind: 'install' | 'restore' } | null = null;

  constructor(private readonly deps: UpdatesServiceDeps) {}

  get uploadDir(): string {
    return path.join(this.deps.workDir, 'upload');
  }

  /** The installed version and why updates do not apply, if they do not. */
  async installed(): Promise<{ version: string; commit: string; notApplicable: UpdatesNotApplicable | null }> {
    const commit = (await this.deps.product.commit()) ?? '';
    if (!this.deps.applyConfigured) return { version: this.deps.product.version, commit, notApplicable: 'development' };
    const version = await this.deps.apt.installedVersion(this.deps.packageName);
    return version === null ? { version: this.deps.product.version, commit, notApplicable: 'notPackaged' } : { version, commit, notApplicable: null };
  }

  async status(): Promise<UpdateStatus> {
    const [state, installed, snapshots] = await Promise.all([this.deps.state.load(), this.installed(), this.deps.snapshots.list(updateSnapshotPrefix)]);
    // Where the file lies is the daemon's business only.
    const upload = state.upload && (({ file, ...shown }) => (void file, shown))(state.upload);
    // The layout install and restore refuse is told up front, not only when the administrator presses install.
    const notApplicable = installed.notApplicable ?? ((await this.deps.snapshots.holding(this.deps.dataDir)) === null ? null : 'dataInSystem');
    return {
      installed: { version: installed.version, commit: installed.commit },
      architecture: this.deps.architecture,
      applies: notApplicable === null,
      notApplicable,
      settings: state.settings,
      lastCheck: state.lastCheck,
      upload,
      running: this.running,
      history: state.history,
      systemDatasets: [...this.deps.snapshots.datasets],
      snapshots: snapshots.map((s) => ({
        name: s.name,
        createdAt: new Date(parseCompactUtc(s.name.slice(updateSnapshotPrefix.length)) ?? 0).toISOString(),
        datasets: [...this.deps.snapshots.datasets],
        held: s.held,
      })),
    };
  }

  /** Publishes the status on `system/updates`; a failure to read it is logged, never thrown at the caller. */
  async changed(): Promise<void> {
    try {
      this.deps.publish('changed', await this.status());
    } catch (err) {
      this.deps.logger.warn('could not publish the update status', { component: 'updates', error: err instanceof Error ? err.message : String(err) });
    }
  }

  /** Reads the channel's signed index and the distribution's lists; a failure is kept as the check's error. */
  async check(signal?: AbortSignal): Promise<UpdateStatus> {
    const installed = await this.installed();
    const channel = this.deps.channel;
    if (!channel) throw new ProblemError('system.updates.not_applicable', { reason: installed.notApplicable ?? 'development' });
    const { settings } = await this.deps.state.load();
    const check: NonNullable<UpdateStatus['lastCheck']> = { at: new Date(this.deps.clock.now()).toISOString(), available: null, distribution: [], error: null };
    const failed = (err: unknown) => {
      if (!(err instanceof ProblemError)) throw err;
      check.error ??= { code: err.code, detail: err.message };
      this.deps.logger.warn('update check failed', { logCode: 'updates.checkFailed', component: 'updates', code: err.code, detail: err.message });
    };
    try {
      check.available = await this.newer(channel, settings.channel, installed.version);
    } catch (err) {
      failed(err);
    }
    // Read even when the channel could not be: the distribution's security updates do not wait for the project's server.
    if (installed.notApplicable === null) {
      try {
        check.distribution = await this.deps.apt.upgradable(signal);
      } catch (err) {
        failed(err);
      }
    }
    await this.deps.state.change((s) => void (s.lastCheck = check));
    await this.changed();
    return this.status();
  }

  /** The channel's release when it is newer than the installed version, else null. */
  private async newer(channel: UpdateChannelReader, name: UpdateSettings['channel'], installed: string): Promise<BoxRelease | null> {
    const index = await channel.index(name);
    packageFor(index, this.deps.architecture);
    try {
      requireNewer(index.version, installed);
    } catch (err) {
      if (err instanceof ProblemError && err.code === 'system.update.not_newer') return null;
      throw err;
    }
    return { version: index.version, commit: index.commit, published: index.published, notes: index.notes };
  }

  async setSettings(settings: UpdateSettings): Promise<UpdateStatus> {
    await this.deps.state.change((s) => void (s.settings = settings));
    await this.changed();
    return this.status();
  }

  /** Takes an uploaded bundle: signed, for this architecture, newer than installed; it replaces one waiting. */
  async upload(body: Readable, limit: number): Promise<UpdateStatus> {
    const incoming = path.join(this.deps.workDir, `incoming-${this.deps.clock.now()}`);
    try {
      const { index, file } = await readBundle(boundedBody(body, limit), incoming, this.deps.keys, this.deps.architecture);
      requireNewer(index.version, (await this.installed()).version);
      await rm(this.uploadDir, { recursive: true, force: true });
      await rename(incoming, this.uploadDir);
      const pkg = packageFor(index, this.deps.architecture);
      await this.deps.state.change(
        (s) =>
          void (s.upload = {
            version: index.version,
            commit: index.commit,
            published: index.published,
            notes: index.notes,
            architecture: pkg.architecture,
            uploadedAt: new Date(this.deps.clock.now()).toISOString(),
            file: path.join(this.uploadDir, path.basename(file)),
          }),
      );
    } finally {
      await rm(incoming, { recursive: true, force: true });
    }
    await this.changed();
    return this.status();
  }

  async discardUpload(): Promise<UpdateStatus> {
    const had = await this.deps.state.change((s) => {
      const found = s.upload !== null;
      s.upload = null;
      return found;
    });
    if (!had) throw new ProblemError('system.update.not_found');
    await rm(this.uploadDir, { recursive: true, force: true });
    await this.changed();
    return this.status();
  }

  private async requireIdle(): Promise<void> {
    const installed = await this.installed();
    if (installed.notApplicable !== null) throw new ProblemError('system.updates.not_applicable', { reason: installed.notApplicable });
    if (this.running) throw new ProblemError('system.updates.busy', { jobId: this.running.jobId });
    // Returning to a snapshot would also return users, shares and settings, and pull the database from under the daemon.
    const dataset = await this.deps.snapshots.holding(this.deps.dataDir);
    if (dataset !== null) throw new ProblemError('system.updates.data_in_system', { dataDir: this.deps.dataDir, dataset });
  }

  async install(user: Principal | null, request: InstallUpdateRequest, only: string[] | null = null): Promise<Job> {
    await this.requireIdle();
    const state = await this.deps.state.load();
    if (request.box === 'upload' && !state.upload) throw new ProblemError('system.update.not_found');
    if (request.box === 'channel' && !state.lastCheck?.available) throw new ProblemError('system.update.not_found');
    if (request.box === 'none' && !request.distribution) throw new ProblemError('system.updates.nothing');
    const params: InstallJobParams = { ...request, only };
    return this.started(await this.deps.enqueue(installJobKind, params, user?.id ?? null), 'install');
  }

  async restore(user: Principal, name: string): Promise<Job> {
    await this.requireIdle();
    const found = await this.deps.snapshots.list(updateSnapshotPrefix);
    if (!found.some((s) => s.name === name)) throw new ProblemError('system.snapshot.not_found', { name });
    return this.started(await this.deps.enqueue(restoreJobKind, { name }, user.id), 'restore');
  }

  private async started(job: Job, kind: 'install' | 'restore'): Promise<Job> {
    this.running = { jobId: job.id, kind };
    await this.changed();
    return job;
  }
}
