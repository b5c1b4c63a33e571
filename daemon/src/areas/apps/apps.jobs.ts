import { chmod, chown, cp, mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Sequelize } from 'sequelize';
import type { AppManifest } from '../../../../shared/src/api/apps/app-manifest.ts';
import { appRight } from '../../../../shared/src/api/identity/permissions.ts';
import type { Clock } from '../../core/clock.ts';
import type { JobContext } from '../../core/jobs/job-types.ts';
import type { Logger } from '../../core/logger.ts';
import { ProblemError } from '../../core/problem-error.ts';
import { appUidRange, type AppAccounts } from '../../host/app-accounts.ts';
import { updateSnapshotName, type AppVolume, type AppVolumes } from '../../host/app-volumes/app-volumes.ts';
import { defaultQuotaBytes, effectiveQuota } from './app-quota.ts';
import type { AppModels } from './app.model.ts';
import type { PackageStore } from './package-store.ts';

export const installJob = 'apps.install';
export const uninstallJob = 'apps.uninstall';
export const rollbackJob = 'apps.rollback';

export interface InstallParams {
  appId: string;
  packageId: string;
  /** The package's private folder (files/ holds it unpacked). */
  folder: string;
  manifest: AppManifest;
  pool: string;
  access: 'everybody' | 'admins';
  /** The catalog the package came from (null: uploaded by hand): the app's source from now on. */
  source: string | null;
}

export interface AppJobsDeps {
  db: Sequelize;
  models: AppModels;
  volumes: AppVolumes;
  accounts: AppAccounts;
  store: PackageStore;
  grants: { grantEverybody(right: string): Promise<void>; removeAll(right: string): Promise<void> };
  clock: Clock;
  logger: Logger;
  /** Whether files can be given to the app's account (the daemon runs as root). */
  chownable: boolean;
  /** Ends the app's tokens (uninstall). */
  endTokens(appId: string): void;
  /** Starts, restarts or stops the app's backend as its row now says. */
  syncBackend(appId: string): Promise<void>;
  stopBackend(appId: string): Promise<void>;
  changed(): void;
}

/** The folders inside an app's volume. */
export const volumeLayout = { package: 'package', data: 'data' } as const;

/** The next uid of the apps' range above every one ever handed out (rows outlive uninstalls). */
async function nextAppUid(models: AppModels): Promise<number> {
  const highest = (await models.accounts.max<number, typeof models.accounts.prototype>('uid')) ?? appUidRange.first - 1;
  if (highest + 1 > appUidRange.last) throw new ProblemError('app.uid.exhausted');
  return highest + 1;
}

/**
 * Puts the unpacked package into the volume as `package/`: copied beside it first, then swapped
 * in by rename, so a failed copy leaves the installed files as they were.
 */
async function placePackage(from: string, volume: AppVolume): Promise<void> {
  const target = path.join(volume.path, volumeLayout.package);
  const incoming = `${target}.incoming`;
  const outgoing = `${target}.outgoing`;
  await rm(incoming, { recursive: true, force: true });
  await rm(outgoing, { recursive: true, force: true });
  try {
    // Links were checked at upload to stay inside the package: kept as they are, never followed.
    await cp(from, incoming, { recursive: true, verbatimSymlinks: true, errorOnExist: true, force: false, preserveTimestamps: true });
    // The kept copy's folder was private to the daemon; installed, the app's account reads it (and only reads it).
    await chmod(incoming, 0o755);
    await rename(target, outgoing).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
    });
    await rename(incoming, target);
  } finally {
    await rm(incoming, { recursive: true, force: true });
    await rm(outgoing, { recursive: true, force: true });
  }
}

/** The app's own folder: its account's alone. The volume's root stays the daemon's, readable to the account. */
async function prepareData(deps: AppJobsDeps, volume: AppVolume, uid: number): Promise<void> {
  const data = path.join(volume.path, volumeLayout.data);
  await mkdir(data, { recursive: true });
  await chmod(volume.path, 0o755);
  await chmod(data, 0o700);
  if (deps.chownable) await chown(data, uid, uid);
}

function nowIso(deps: AppJobsDeps): string {
  return new Date(deps.clock.now()).toISOString();
}

/**
 * Installs a new app or updates an installed one. An update snapshots the volume first and
 * returns to that snapshot, previous files and data together, when any later step fails.
 */
export async function runInstall(deps: AppJobsDeps, ctx: JobContext<InstallParams>): Promise<{ appId: string; version: string }> {
  const { appId, manifest, pool } = ctx.params;
  const steps = 5;
  try {
    ctx.progress(0, steps, 'steps');
    const existing = await deps.models.apps.findByPk(appId);
    let account = await deps.models.accounts.findByPk(appId);
    const keptVolume = account?.dataset ? await deps.volumes.find(account.dataset) : null;
    const volume = keptVolume ?? (await deps.volumes.ensure(pool, appId));
    if (!account) account = await deps.models.accounts.create({ appId, uid: await nextAppUid(deps.models), dataset: volume.name });
    else if (account.dataset !== volume.name) await account.update({ dataset: volume.name });
    await deps.accounts.ensure(account.uid, appId, volume.path);
    // Bounded before anything is written into it: the administrator's quota, else this version's default.
    const quota = effectiveQuota(account.quotaBytes ?? null, defaultQuotaBytes(manifest));
    await deps.volumes.setQuota(volume.name, quota).catch((err: unknown) =>
      // A kept volume may hold more than a new default: the install goes on, the App Center shows both numbers.
      deps.logger.warn('app quota not set', { component: 'apps', appId, quotaBytes: quota, error: String(err) }),
    );
    ctx.progress(1, steps, 'steps');
    const snapshot = existing ? updateSnapshotName(new Date(deps.clock.now())) : null;
    if (snapshot) await deps.volumes.snapshot(volume.name, snapshot);
    ctx.progress(2, steps, 'steps');
    try {
      ctx.signal.throwIfAborted();
      await placePackage(path.join(ctx.params.folder, 'files'), volume);
      await prepareData(deps, volume, account.uid);
      ctx.progress(3, steps, 'steps');
      ctx.signal.throwIfAborted();
      const fields = {
        version: manifest.version,
        dataVersion: manifest.dataVersion,
        manifest: JSON.stringify(manifest),
        sourceCatalog: ctx.params.source,
        updatedAt: nowIso(deps),
      };
      if (existing) await existing.update({ ...fields, previousManifest: existing.manifest, previousSnapshot: snapshot });
      else
        await deps.models.apps.create({
          id: appId,
          ...fields,
          state: 'enabled',
          revoked: '[]',
          logLevel: 'info',
          updatePolicy: null,
          installedAt: nowIso(deps),
        });
    } catch (err) {
      if (snapshot) await deps.volumes.rollback(volume.name, snapshot);
      // A first install leaves no files of its package behind; data kept from an earlier install stays.
      else await rm(path.join(volume.path, volumeLayout.package), { recursive: true, force: true });
      throw err;
    }
    ctx.progress(4, steps, 'steps');
    // Only the last update can be rolled back: the snapshot of the one before goes.
    if (existing?.previousSnapshot && existing.previousSnapshot !== snapshot) {
      const older = existing.previousSnapshot;
      await deps.volumes
        .destroySnapshot(volume.name, older)
        .catch((err: unknown) => deps.logger.warn('old app snapshot not destroyed', { component: 'apps', appId, snapshot: older, error: String(err) }));
    }
    if (!existing && ctx.params.access === 'everybody') await deps.grants.grantEverybody(appRight(appId));
    ctx.progress(steps, steps, 'steps');
    deps.logger.info(existing ? 'app updated' : 'app installed', {
      logCode: existing ? 'apps.updated' : 'apps.installed',
      component: 'apps',
      appId,
      version: manifest.version,
      uid: account.uid,
      volume: volume.name,
    });
    return { appId, version: manifest.version };
  } finally {
    await deps.store.drop(ctx.params.packageId);
    // The new version's backend, or the old one's again after a failed update.
    await deps.syncBackend(appId).catch((err: unknown) => deps.logger.warn('app backend not started', { component: 'apps', appId, error: String(err) }));
    deps.changed();
  }
}

/** Returns to the version before the last update, with the volume as it was before that update. */
export async function runRollback(deps: AppJobsDeps, ctx: JobContext<{ appId: string }>): Promise<{ appId: string; version: string }> {
  const { appId } = ctx.params;
  try {
    const row = await deps.models.apps.findByPk(appId);
    const account = await deps.models.accounts.findByPk(appId);
    if (!row || !account?.dataset) throw new ProblemError('app.app.not_found', { appId });
    if (!row.previousManifest || !row.previousSnapshot) throw new ProblemError('app.app.no_previous', { appId });
    ctx.progress(0, 2, 'steps');
    // Its files change under it: stopped first, started again on the version rolled back to.
    await deps.stopBackend(appId);
    await deps.volumes.rollback(account.dataset, row.previousSnapshot);
    const manifest = JSON.parse(row.previousManifest) as AppManifest;
    await row.update({
      version: manifest.version,
      dataVersion: manifest.dataVersion,
      manifest: row.previousManifest,
      previousManifest: null,
      previousSnapshot: null,
      updatedAt: nowIso(deps),
    });
    ctx.progress(2, 2, 'steps');
    deps.logger.info('app rolled back', { logCode: 'apps.rolledBack', component: 'apps', appId, version: manifest.version });
    return { appId, version: manifest.version };
  } finally {
    await deps.syncBackend(appId).catch((err: unknown) => deps.logger.warn('app backend not started', { component: 'apps', appId, error: String(err) }));
    deps.changed();
  }
}

/**
 * Uninstalls an app. keep removes its package and leaves its data (and account) for a later
 * install of the same id; delete destroys the volume with every snapshot and the account.
 * Grants and storage mappings go either way; mapped folders stay as they are.
 */
export async function runUninstall(deps: AppJobsDeps, ctx: JobContext<{ appId: string; data: 'keep' | 'delete' }>): Promise<{ appId: string }> {
  const { appId, data } = ctx.params;
  try {
    const row = await deps.models.apps.findByPk(appId);
    const account = await deps.models.accounts.findByPk(appId);
    if (!row || !account) throw new ProblemError('app.app.not_found', { appId });
    ctx.progress(0, 2, 'steps');
    await deps.stopBackend(appId);
    const volume = account.dataset ? await deps.volumes.find(account.dataset) : null;
    if (data === 'delete') {
      if (account.dataset) await deps.volumes.destroy(account.dataset);
      await deps.accounts.remove(account.uid);
      await account.update({ dataset: null });
    } else if (volume) await rm(path.join(volume.path, volumeLayout.package), { recursive: true, force: true });
    ctx.progress(1, 2, 'steps');
    await deps.db.transaction(async (transaction) => {
      await deps.models.mappings.destroy({ where: { appId }, transaction });
      await row.destroy({ transaction });
    });
    await deps.grants.removeAll(appRight(appId));
    deps.endTokens(appId);
    ctx.progress(2, 2, 'steps');
    deps.logger.info('app uninstalled', { logCode: 'apps.uninstalled', component: 'apps', appId, data });
    return { appId };
  } finally {
    deps.changed();
  }
}
