import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { UpdateHistoryEntry } from '../../../../shared/src/api/updates/updates.ts';
import type { JobContext, JobKind } from '../../core/jobs/job-types.ts';
import { ProblemError } from '../../core/problem-error.ts';
import { compactUtc } from '../storage/snapshot-names.ts';
import { packageFor, requireHash, requireNewer } from './signed-release.ts';
import { updateSnapshotPrefix, type InstallJobParams, type UpdatesService, type UpdatesServiceDeps } from './updates.service.ts';

export interface UpdateJobsDeps extends UpdatesServiceDeps {
  service: UpdatesService;
  /** The daemon restarts itself: its own package changed, or the system returned to a snapshot. */
  restart(reason: 'package' | 'snapshot'): void;
}

type Step = 'snapshot' | 'download' | 'box' | 'distribution' | 'rollback';

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * The install and restore jobs. Install: snapshot the system datasets (held), record a history
 * entry, install the box's package and/or the distribution's updates; on a failed step return
 * to the snapshot. After a good update the holds of older update snapshots are released.
 */
export function updateJobs(deps: UpdateJobsDeps): { install: JobKind<InstallJobParams, unknown>; restore: JobKind<{ name: string }, unknown> } {
  const { service, snapshots, state, clock } = deps;
  const zfs = () => snapshots.datasets.length > 0;

  const record = (entry: UpdateHistoryEntry) =>
    state.change((s) => {
      s.history = [entry, ...s.history.filter((h) => h.id !== entry.id)];
    });
  const newEntry = (kind: UpdateHistoryEntry['kind'], fromVersion: string, ctx: JobContext<unknown>, snapshot: string | null) =>
    state.change((s): UpdateHistoryEntry => {
      const entry: UpdateHistoryEntry = {
        id: s.nextId++,
        kind,
        state: 'running',
        startedAt: new Date(clock.now()).toISOString(),
        finishedAt: null,
        fromVersion,
        toVersion: null,
        distributionPackages: 0,
        snapshot,
        returned: false,
        error: null,
        jobId: ctx.jobId,
      };
      s.history = [entry, ...s.history];
      return entry;
    });
  const finished = async (entry: UpdateHistoryEntry, fields: Partial<UpdateHistoryEntry>) => {
    await record({ ...entry, ...fields, finishedAt: new Date(clock.now()).toISOString() });
    service.running = null;
    await service.changed();
  };

  /** The package file to install: downloaded from the channel (fresh signed index) or the upload waiting. */
  async function boxPackage(params: InstallJobParams, installed: string, signal: AbortSignal): Promise<{ file: string; version: string } | null> {
    if (params.box === 'none') return null;
    if (params.box === 'upload') {
      const upload = (await state.load()).upload;
      if (!upload) throw new ProblemError('system.update.not_found');
      requireNewer(upload.version, installed);
      return { file: upload.file, version: upload.version };
    }
    if (!deps.channel) throw new ProblemError('system.updates.not_applicable', { reason: 'development' });
    const channel = (await state.load()).settings.channel;
    const index = await deps.channel.index(channel);
    requireNewer(index.version, installed);
    const pkg = packageFor(index, deps.architecture);
    const dir = path.join(deps.workDir, 'download');
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const file = path.join(dir, pkg.file);
    await deps.channel.download(channel, pkg.file, file, signal);
    await requireHash(file, pkg);
    return { file, version: index.version };
  }

  const install: JobKind<InstallJobParams, unknown> = {
    run: async (ctx) => {
      const { params, signal } = ctx;
      const before = (await service.installed()).version;
      const distribution = params.distribution ? ((await state.load()).lastCheck?.distribution ?? []) : [];
      const older = (await snapshots.list(updateSnapshotPrefix)).map((s) => s.name);
      let step: Step = 'download';
      ctx.progress(0, 4, 'steps');
      let pkg: { file: string; version: string } | null;
      try {
        pkg = await boxPackage(params, before, signal);
      } catch (err) {
        service.running = null;
        await service.changed();
        throw err;
      }
      const snapshot = zfs() ? `${updateSnapshotPrefix}${compactUtc(clock.now())}` : null;
      const entry = await newEntry('install', before, ctx, snapshot);
      const count = params.only?.length ?? distribution.length;
      try {
        step = 'snapshot';
        if (snapshot) await snapshots.take(snapshot);
        ctx.progress(1, 4, 'steps');
        step = 'box';
        if (pkg) await deps.apt.installFile(pkg.file, signal);
        ctx.progress(2, 4, 'steps');
        step = 'distribution';
        if (params.distribution) await deps.apt.upgrade(params.only, signal);
        ctx.progress(3, 4, 'steps');
      } catch (err) {
        deps.logger.error('update failed', { logCode: 'updates.failed', component: 'updates', step, error: message(err) });
        let returned = false;
        if (snapshot && step !== 'snapshot') {
          try {
            await snapshots.rollback(snapshot, []);
            returned = true;
          } catch (rollbackErr) {
            deps.logger.error('could not return to the snapshot', {
              logCode: 'updates.rollbackFailed',
              component: 'updates',
              snapshot,
              error: message(rollbackErr),
            });
          }
        }
        await finished(entry, { state: returned ? 'restored' : 'failed', returned, distributionPackages: count, error: `${step}: ${message(err)}` });
        throw new ProblemError('system.update.failed', { step, returned }, { detail: message(err), cause: err });
      }
      // A good update: the older snapshots are no longer needed to return to, only this one.
      for (const name of older) await snapshots.release(name);
      const after = (await service.installed()).version;
      await state.change((s) => {
        if (params.box === 'upload') s.upload = null;
        if (s.lastCheck)
          s.lastCheck = {
            ...s.lastCheck,
            available: params.box === 'channel' ? null : s.lastCheck.available,
            // Automatic security updates install only some: the others are still to be installed.
            distribution: !params.distribution ? s.lastCheck.distribution : s.lastCheck.distribution.filter((u) => params.only?.includes(u.name) === false),
          };
      });
      if (params.box === 'upload') await rm(service.uploadDir, { recursive: true, force: true });
      await finished(entry, { state: 'succeeded', toVersion: after, distributionPackages: count });
      ctx.progress(4, 4, 'steps');
      if (pkg) {
        deps.publish('restarting', { reason: 'package' });
        deps.restart('package');
      }
      return { fromVersion: before, toVersion: after, snapshot };
    },
  };

  const restore: JobKind<{ name: string }, unknown> = {
    run: async (ctx) => {
      const { name } = ctx.params;
      const before = (await service.installed()).version;
      const entry = await newEntry('restore', before, ctx, name);
      try {
        const present = (await snapshots.list(updateSnapshotPrefix)).map((s) => s.name);
        if (!present.includes(name)) throw new ProblemError('system.snapshot.not_found', { name });
        await snapshots.rollback(
          name,
          present.filter((n) => n > name),
        );
      } catch (err) {
        await finished(entry, { state: 'failed', error: message(err) });
        throw err;
      }
      await finished(entry, { state: 'succeeded', toVersion: (await service.installed()).version, returned: true });
      deps.publish('restarting', { reason: 'snapshot' });
      deps.restart('snapshot');
      return { snapshot: name };
    },
  };
  return { install, restore };
}
