import type { AppPackagePreview } from '../../../../shared/src/api/apps/app-packages.ts';
import type { Job } from '../../../../shared/src/api/jobs/jobs.ts';
import type { JobContext } from '../../core/jobs/job-types.ts';
import type { Principal } from '../../core/principal.ts';
import type { StoreBrowse } from './store-browse.ts';
import type { StoreService } from './store.service.ts';

export interface CheckDeps {
  store: StoreService;
  browse: StoreBrowse;
  /** The administrator an automatic update runs as: the one who started the check, else the first active one. */
  actor(userId: number | null): Promise<Principal | null>;
  administrators(): Promise<number[]>;
  install(user: Principal, packageId: string): Promise<Job>;
  discard(user: Principal, packageId: string): Promise<void>;
  /** Waits for a job to end and answers it as it ended. */
  finished(jobId: number, signal: AbortSignal): Promise<Job>;
  notify(userId: number, input: UpdateNotification): Promise<unknown>;
}

/** What the check tells an administrator: a code the web translates, and its English text. */
export interface UpdateNotification {
  type: 'store.update';
  code: 'store.update.available' | 'store.update.needs_consent';
  params: { appId: string; version: string; installedVersion: string };
  title: string;
  body: string;
  level: 'info';
  link: string;
}

export interface CheckResult {
  fetched: string[];
  failed: string[];
  installed: { appId: string; version: string; jobId: number }[];
  installFailed: { appId: string; version: string; code: string }[];
  announced: { appId: string; version: string }[];
}

/** An update that asks for more than the installed version (a permission, storage, a new or other backend) may not go in unattended: its consent is the administrator's. */
const needsConsent = (p: AppPackagePreview) =>
  p.permissions.added.length > 0 || p.storage.added.length > 0 || p.storage.changed.length > 0 || p.backend === 'added' || p.backend === 'changed';

/**
 * The check (daily, or asked for): fetches every enabled catalog at once, each with its own time
 * limit so a stuck one delays no other; installs updates whose policy is automatic through the Apps
 * area's install job (snapshot first, back to it on failure); announces the others to administrators.
 */
export async function runCheck(deps: CheckDeps, ctx: JobContext<Record<string, never>>): Promise<CheckResult> {
  const { store } = deps;
  const rows = await store.deps.models.catalogs.findAll({ where: { enabled: true } });
  const result: CheckResult = { fetched: [], failed: [], installed: [], installFailed: [], announced: [] };
  const fetches = await Promise.allSettled(rows.map((row) => store.fetchCatalog(row.key, ctx.signal)));
  fetches.forEach((f, i) => (f.status === 'fulfilled' ? result.fetched : result.failed).push(rows[i]?.catalogId ?? ''));
  const updates = await store.updates();
  ctx.progress(0, updates.length, 'apps');
  const admins = await deps.administrators();
  // Each app version is announced once: a later check that finds it again stays quiet, a newer version speaks again.
  const announce = async (appId: string, version: string, installedVersion: string, code: UpdateNotification['code']) => {
    const [, created] = await store.deps.models.announcements.findOrCreate({
      where: { appId, version },
      defaults: { appId, version, announcedAt: new Date(store.deps.clock.now()).toISOString() },
    });
    if (!created) return;
    result.announced.push({ appId, version });
    const why = code === 'store.update.needs_consent' ? ' It asks for new permissions, storage or a new backend: install it from the Store.' : '';
    for (const id of admins)
      await deps.notify(id, {
        type: 'store.update',
        code,
        params: { appId, version, installedVersion },
        title: `${appId} ${version} is available`,
        body: `Installed: ${installedVersion}.${why}`,
        level: 'info',
        link: '/app/org.service.app-center/store',
      });
  };
  for (const [i, u] of updates.entries()) {
    if (ctx.signal.aborted) break;
    const actor = u.policy === 'automatic' ? await deps.actor(ctx.userId) : null;
    if (u.policy === 'notify' || (u.policy === 'automatic' && !actor)) await announce(u.appId, u.version, u.installedVersion, 'store.update.available');
    else if (u.policy === 'automatic' && actor) {
      try {
        const preview = await deps.browse.takePackage(actor, u.catalog, u.appId, u.version);
        if (needsConsent(preview)) {
          await deps.discard(actor, preview.packageId);
          await announce(u.appId, u.version, u.installedVersion, 'store.update.needs_consent');
        } else {
          const job = await deps.install(actor, preview.packageId);
          const ended = await deps.finished(job.id, ctx.signal);
          if (ended.state === 'succeeded') result.installed.push({ appId: u.appId, version: u.version, jobId: job.id });
          else result.installFailed.push({ appId: u.appId, version: u.version, code: ended.error?.code ?? 'cancelled' });
        }
      } catch (err) {
        const code = (err as { code?: string }).code ?? 'server.internal.error';
        result.installFailed.push({ appId: u.appId, version: u.version, code });
        ctx.logger.warn('store automatic update failed', {
          logCode: 'store.automaticUpdateFailed',
          component: 'store',
          appId: u.appId,
          version: u.version,
          code,
        });
      }
    }
    ctx.progress(i + 1, updates.length, 'apps');
  }
  await (await store.settingsRow()).update({ lastCheckAt: new Date(store.deps.clock.now()).toISOString() });
  store.changed();
  return result;
}
