import type { AppPermission } from '../../../../shared/src/api/apps/app-manifest.ts';
import type { AppSelf } from '../../../../shared/src/api/apps/app-api.ts';
import type {
  AdminAppList,
  AppBackendLimits,
  AppDetails,
  AppGrants,
  AppLogLevel,
  AppToken,
  AppTokenRequest,
  AppUpdatePolicy,
} from '../../../../shared/src/api/apps/apps.ts';
import type { InstallAppRequest } from '../../../../shared/src/api/apps/app-packages.ts';
import type { DesktopApp } from '../../../../shared/src/api/desktop/state.ts';
import type { Job } from '../../../../shared/src/api/jobs/jobs.ts';
import { appRight } from '../../../../shared/src/api/identity/permissions.ts';
import { topicName } from '../../../../shared/src/topics.ts';
import type { Clock } from '../../core/clock.ts';
import type { Logger } from '../../core/logger.ts';
import type { Principal } from '../../core/principal.ts';
import { ProblemError } from '../../core/problem-error.ts';
import type { TopicPublisher } from '../../core/topics/topic-provider.ts';
import type { AppVolumes } from '../../host/app-volumes/app-volumes.ts';
import { appDetailsOf } from './app-details.ts';
import { defaultQuotaBytes, effectiveQuota } from './app-quota.ts';
import { frontendsPath } from './app-frontends.ts';
import type { AppTokens } from './app-tokens.ts';
import type { BackendSupervisor } from './backend-supervisor.ts';
import { volumeLayout } from './apps.jobs.ts';
import { installJob, rollbackJob, uninstallJob, type InstallParams } from './apps.jobs.ts';
import path from 'node:path';
import type { AppModels, AppRow } from './app.model.ts';
import type { PackagesService } from './packages.service.ts';
import type { PackageStore } from './package-store.ts';

export interface InstalledAppsDeps {
  models: AppModels;
  volumes: AppVolumes;
  store: PackageStore;
  packages: PackagesService;
  grants: {
    subjects(right: string): Promise<{ users: number[]; groups: number[] }>;
    replace(right: string, users: readonly number[], groups: readonly number[]): Promise<void>;
    result(right: string): Promise<AppGrants['result']>;
    allowed(userId: number, right: string): Promise<boolean>;
    touched(): void;
  };
  jobs: {
    enqueue<P>(kind: string, params: P, userId: number | null): Promise<Job>;
    get(id: number, reader: { id: number; admin: boolean }): Promise<Job>;
  };
  tokens: AppTokens;
  backends: BackendSupervisor;
  /** The limits backends run under here, and how they are held (or why not). */
  backendLimits: AppBackendLimits;
  publisher: TopicPublisher;
  clock: Clock;
  logger: Logger;
  /** The real folders mapped to the app's storage requests in force, by storage id (for its backend). */
  backendFolders(appId: string): Promise<Record<string, string>>;
  /** Mappings in force may have changed (an app switched on or off, a permission, an uninstall): ACLs follow. */
  aclsChanged(): void;
}

/** Installed apps: the list, their settings, who may use them, and the jobs that install, roll back and remove them. */
export class InstalledAppsService {
  /** The job changing each app now: one at a time per app. */
  private readonly busy = new Map<string, number>();
  /** Installed apps as the permission catalog lists them (read synchronously there), kept fresh by changed(). */
  private catalogApps: { id: string; title: string }[] = [];

  constructor(private readonly deps: InstalledAppsDeps) {}

  async list(): Promise<AdminAppList> {
    const { models } = this.deps;
    const [rows, accounts, mappings, settings] = await Promise.all([
      models.apps.findAll({ order: [['id', 'ASC']] }),
      models.accounts.findAll(),
      models.mappings.findAll(),
      models.settings.findByPk(1),
    ]);
    const apps: AppDetails[] = [];
    for (const row of rows) {
      const account = accounts.find((a) => a.appId === row.id);
      if (account)
        apps.push(
          appDetailsOf(
            row,
            account,
            mappings.filter((m) => m.appId === row.id),
            await this.usedBytes(account.dataset),
          ),
        );
    }
    return { pool: settings?.pool ?? null, apps, backendLimits: this.deps.backendLimits, quotaEnforced: this.deps.volumes.quotaEnforced };
  }

  private async usedBytes(dataset: string | null): Promise<number | null> {
    return dataset ? this.deps.volumes.usedBytes(dataset).catch(() => null) : null;
  }

  async details(appId: string): Promise<AppDetails> {
    const row = await this.row(appId);
    const account = await this.deps.models.accounts.findByPk(appId);
    if (!account) throw new ProblemError('app.app.not_found', { appId });
    return appDetailsOf(row, account, await this.deps.models.mappings.findAll({ where: { appId } }), await this.usedBytes(account.dataset));
  }

  private async row(appId: string): Promise<AppRow> {
    const row = await this.deps.models.apps.findByPk(appId);
    if (!row) throw new ProblemError('app.app.not_found', { appId });
    return row;
  }

  catalog(): readonly { id: string; title: string }[] {
    return this.catalogApps;
  }

  /** Tells the administrators' App Center (apps/admin) the whole list again, refreshes the catalog's, and has start menus read their apps again. */
  changed(): void {
    this.deps.grants.touched();
    this.deps.aclsChanged();
    void this.list()
      .then((list) => {
        this.catalogApps = list.apps.map((app) => ({ id: app.id, title: app.manifest.name }));
        this.deps.publisher.publish(topicName.appsAdmin, 'changed', list);
      })
      .catch((err: unknown) => this.deps.logger.warn('apps list not published', { component: 'apps', error: String(err) }));
  }

  /** Refuses a second change of an app while a job changes it; a job that ended (or was cancelled while queued) frees it. */
  private async assertIdle(appId: string, admin: Principal): Promise<void> {
    const jobId = this.busy.get(appId);
    if (jobId === undefined) return;
    const job = await this.deps.jobs.get(jobId, { id: admin.id, admin: true }).catch(() => null);
    if (job && (job.state === 'queued' || job.state === 'running')) throw new ProblemError('app.app.busy', { appId, jobId });
    this.busy.delete(appId);
  }

  private async enqueue<P>(appId: string, kind: string, params: P, admin: Principal): Promise<Job> {
    const job = await this.deps.jobs.enqueue(kind, params, admin.id);
    this.busy.set(appId, job.id);
    return job;
  }

  async install(admin: Principal, packageId: string, body: InstallAppRequest): Promise<Job> {
    // Checked again now: another version may have been installed since the preview.
    const preview = await this.deps.packages.preview(admin, packageId);
    const appId = preview.manifest.id;
    await this.assertIdle(appId, admin);
    const settings = (await this.deps.models.settings.findByPk(1)) ?? (await this.deps.models.settings.create({ id: 1, pool: null }));
    const pool = settings.pool ?? body.pool ?? null;
    if (pool === null) throw new ProblemError('app.pool.required');
    if (body.pool !== undefined && body.pool !== pool) throw new ProblemError('app.pool.fixed', { pool });
    if (!(await this.deps.volumes.poolExists(pool))) throw new ProblemError('storage.pool.not_found', { pool });
    // An installed app takes versions from its own source only: another catalog (or a hand upload) must not slip in an update unless an administrator says so.
    if (preview.action !== 'install' && preview.source !== preview.installedSource && body.switchSource !== true)
      throw new ProblemError('app.package.source_changed', { appId, source: preview.source ?? 'upload', installedSource: preview.installedSource ?? 'upload' });
    if (settings.pool === null) await settings.update({ pool });
    const kept = this.deps.store.take(packageId, admin.id);
    const params: InstallParams = {
      appId,
      packageId,
      folder: kept.folder,
      manifest: kept.manifest,
      pool,
      access: body.access ?? 'everybody',
      source: kept.source,
    };
    this.deps.logger.info('app install queued', {
      logCode: 'apps.installQueued',
      component: 'apps',
      appId,
      version: kept.manifest.version,
      action: preview.action,
      source: kept.source,
    });
    return this.enqueue(appId, installJob, params, admin);
  }

  async rollback(admin: Principal, appId: string): Promise<Job> {
    const row = await this.row(appId);
    await this.assertIdle(appId, admin);
    if (!row.previousManifest || !row.previousSnapshot) throw new ProblemError('app.app.no_previous', { appId });
    return this.enqueue(appId, rollbackJob, { appId }, admin);
  }

  async uninstall(admin: Principal, appId: string, data: 'keep' | 'delete'): Promise<Job> {
    await this.row(appId);
    await this.assertIdle(appId, admin);
    return this.enqueue(appId, uninstallJob, { appId, data }, admin);
  }

  private async change(appId: string, fields: Partial<Pick<AppRow, 'state' | 'logLevel' | 'updatePolicy' | 'revoked'>>, what: string): Promise<AppDetails> {
    const row = await this.row(appId);
    await row.update({ ...fields, updatedAt: new Date(this.deps.clock.now()).toISOString() });
    this.deps.logger.info(what, { component: 'apps', appId, ...fields });
    this.changed();
    return this.details(appId);
  }

  /** Off: nobody can open it, it is not served and its tokens end; data and grants stay. */
  async setEnabled(admin: Principal, appId: string, enabled: boolean): Promise<AppDetails> {
    await this.assertIdle(appId, admin);
    const details = await this.change(appId, { state: enabled ? 'enabled' : 'disabled' }, enabled ? 'app enabled' : 'app disabled');
    if (!enabled) this.deps.tokens.endApp(appId);
    await this.syncBackend(appId);
    return details;
  }

  async setLogLevel(appId: string, level: AppLogLevel): Promise<AppDetails> {
    const details = await this.change(appId, { logLevel: level }, 'app log level set');
    this.deps.publisher.publish(topicName.apps(appId), 'logLevel', { appId, level });
    return details;
  }

  setUpdatePolicy(appId: string, policy: AppUpdatePolicy): Promise<AppDetails> {
    return this.change(appId, { updatePolicy: policy }, 'app update policy set');
  }

  /** Listed permissions change, others stay; a revoked one stays revoked across updates. */
  async setPermissions(appId: string, permissions: Partial<Record<AppPermission, boolean>>): Promise<AppDetails> {
    const row = await this.row(appId);
    const requested = row.parsedManifest.permissions;
    const revoked = new Set(row.revokedPermissions);
    for (const [permission, granted] of Object.entries(permissions) as [AppPermission, boolean][]) {
      if (!requested.includes(permission)) throw new ProblemError('app.permission.not_requested', { permission });
      if (granted) revoked.delete(permission);
      else revoked.add(permission);
    }
    const details = await this.change(appId, { revoked: JSON.stringify([...revoked].sort()) }, 'app permissions set');
    // files decides which mapped folders the backend is told of (CELLAR_STORAGE).
    if ('files' in permissions) await this.syncBackend(appId);
    return details;
  }

  /**
   * Sets how much the app's volume may hold (null: its default, 0: none). Where quotas hold, one
   * below what the volume holds now is refused; on folders it is kept, not enforced.
   */
  async setQuota(admin: Principal, appId: string, quotaBytes: number | null): Promise<AppDetails> {
    await this.assertIdle(appId, admin);
    const row = await this.row(appId);
    const account = await this.deps.models.accounts.findByPk(appId);
    if (!account?.dataset) throw new ProblemError('app.app.not_found', { appId });
    const effective = effectiveQuota(quotaBytes, defaultQuotaBytes(row.parsedManifest));
    const used = effective === null ? null : await this.usedBytes(account.dataset);
    if (used !== null && effective !== null && used > effective) throw new ProblemError('app.quota.below_used', { appId, usedBytes: used });
    await this.deps.volumes.setQuota(account.dataset, effective);
    await account.update({ quotaBytes });
    this.deps.logger.info('app quota set', {
      logCode: 'apps.quotaSet',
      component: 'apps',
      appId,
      quotaBytes,
      effectiveBytes: effective,
      enforced: this.deps.volumes.quotaEnforced,
    });
    this.changed();
    return this.details(appId);
  }

  async grants(appId: string): Promise<AppGrants> {
    await this.row(appId);
    const right = appRight(appId);
    return { appId, ...(await this.deps.grants.subjects(right)), result: await this.deps.grants.result(right) };
  }

  async setGrants(appId: string, users: readonly number[], groups: readonly number[]): Promise<AppGrants> {
    await this.row(appId);
    await this.deps.grants.replace(appRight(appId), users, groups);
    this.deps.logger.info('app grants set', { logCode: 'apps.grantsSet', component: 'apps', appId, users, groups });
    return this.grants(appId);
  }

  /** Whether a user may use an app now: it is enabled, and the user an administrator or granted its use. */
  async mayUse(principal: Principal, appId: string): Promise<boolean> {
    const row = await this.deps.models.apps.findByPk(appId);
    if (!row || row.state !== 'enabled') return false;
    return principal.admin || (await this.deps.grants.allowed(principal.id, appRight(appId)));
  }

  /** Runs the backend of an enabled app that has one (restarting it on a new version), and stops any other. */
  async syncBackend(appId: string): Promise<void> {
    const row = await this.deps.models.apps.findByPk(appId);
    const account = await this.deps.models.accounts.findByPk(appId);
    const backend = row?.state === 'enabled' ? row.parsedManifest.backend : null;
    const volume = backend && account?.dataset ? await this.deps.volumes.find(account.dataset) : null;
    if (!backend || !account || !volume) return this.deps.backends.stop(appId);
    await this.deps.backends.start({
      appId,
      uid: account.uid,
      command: backend.command,
      cwd: path.join(volume.path, volumeLayout.package, 'backend'),
      dataDir: path.join(volume.path, volumeLayout.data),
      storage: await this.deps.backendFolders(appId),
    });
  }

  /** At start: every enabled app's backend. */
  async startBackends(): Promise<void> {
    for (const row of await this.deps.models.apps.findAll({ where: { state: 'enabled' } }))
      await this.syncBackend(row.id).catch((err: unknown) =>
        this.deps.logger.warn('app backend not started', { component: 'apps', appId: row.id, error: String(err) }),
      );
  }

  /** Enabled apps a caller may use, for the start menu: administrators every one, others those granted to them. */
  async desktopApps(caller: { admin: boolean; rights: ReadonlySet<string> }): Promise<DesktopApp[]> {
    const rows = await this.deps.models.apps.findAll({ where: { state: 'enabled' }, order: [['id', 'ASC']] });
    return rows
      .filter((row) => caller.admin || caller.rights.has(appRight(row.id)))
      .map((row) => {
        const { name } = row.parsedManifest;
        return {
          id: row.id,
          icon: 'package',
          title: { en: name, de: name },
          defaultWindow: { width: 800, height: 600 },
          frontend: `${frontendsPath}/${row.id}/`,
          iconUrl: `/api/apps/${row.id}/icon`,
        };
      });
  }

  /** A token for one window of an app the caller may use (POST /api/apps/{appId}/tokens). */
  async issueToken(principal: Principal, appId: string, request: AppTokenRequest): Promise<AppToken> {
    if (!(await this.mayUse(principal, appId))) throw new ProblemError('app.app.not_found', { appId });
    if (request.kind === 'backend' && !(await this.row(appId)).parsedManifest.backend) throw new ProblemError('app.backend.missing', { appId });
    return this.deps.tokens.issue({ kind: request.kind, userId: principal.id, sessionId: principal.sessionId, appId, instanceId: request.instanceId });
  }

  /** The desktop closed one of its windows of the app: that window's tokens end (DELETE /api/apps/{appId}/tokens?instanceId=). */
  closeWindow(principal: Principal, appId: string, instanceId: string): void {
    this.deps.tokens.endWindow(principal.sessionId, appId, instanceId);
  }

  /** What a window of the app learns of itself (GET /api/app/me): the permissions it holds now and its log level. */
  async self(principal: Principal, appId: string): Promise<AppSelf> {
    const row = await this.row(appId);
    const revoked = row.revokedPermissions;
    return {
      appId,
      user: { id: principal.id, username: principal.username, displayName: principal.displayName },
      language: principal.language,
      permissions: row.parsedManifest.permissions.filter((p) => !revoked.includes(p)),
      logLevel: row.logLevel,
    };
  }
}
