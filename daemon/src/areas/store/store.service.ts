import type { AppUpdatePolicy } from '../../../../shared/src/api/apps/apps.ts';
import { compareVersions } from '../../../../shared/src/api/apps/app-manifest.ts';
import type { CatalogApp, CatalogVersion } from '../../../../shared/src/api/store/catalog-index.ts';
import type {
  AddCatalogRequest,
  CatalogInfo,
  StoreChannel,
  StoreSettings,
  StoreSettingsRequest,
  StoreState,
  StoreUpdate,
  UpdateCatalogRequest,
} from '../../../../shared/src/api/store/store.ts';
import { topicName } from '../../../../shared/src/topics.ts';
import type { Job } from '../../../../shared/src/api/jobs/jobs.ts';
import type { Clock } from '../../core/clock.ts';
import type { JobEngine } from '../../core/jobs/job-engine.ts';
import type { Logger } from '../../core/logger.ts';
import { ProblemError } from '../../core/problem-error.ts';
import type { TopicPublisher } from '../../core/topics/topic-provider.ts';
import { deployPublicKey, makeDeployKey, pinnedHostKey } from '../../host/git/git-client.ts';
import { isSshUrl, type CatalogCopies } from './catalog-copies.ts';
import { chooseDelayMinutes, nextCheckAt } from './daily-check.ts';
import type { CatalogRow, StoreModels, StoreSettingsRow } from './store.model.ts';

export const syncJob = 'store.sync';
export const checkJob = 'store.check';

/** A catalog the daemon brings along: signed by the project, cannot be removed. */
export interface ProjectCatalog {
  id: string;
  name: string;
  url: string;
}

export interface InstalledApp {
  id: string;
  version: string;
  updatePolicy: AppUpdatePolicy;
  /** The catalog the app came from: the only one whose versions are its updates (null: uploaded by hand, none). */
  source: string | null;
}

export interface StoreDeps {
  models: StoreModels;
  copies: CatalogCopies;
  clock: Clock;
  logger: Logger;
  publisher: TopicPublisher;
  jobs: Pick<JobEngine, 'enqueue'>;
  projectCatalogs: readonly ProjectCatalog[];
  /** The box's time zone (the time area's). */
  zone(): string;
  boxVersion: string;
  /** http:// catalogs are for tests on loopback: development mode only. */
  allowHttp: boolean;
  installed(): Promise<InstalledApp[]>;
}

export const branchOf = (channel: StoreChannel) => (channel === 'beta' ? 'catalog-next' : 'catalog');

/** The newest version of an app that this box can run; null when every one needs a newer box. */
export function newestRunnable(app: CatalogApp, boxVersion: string): CatalogVersion | null {
  let best: CatalogVersion | null = null;
  for (const v of app.versions) {
    if (compareVersions(v.manifest.minBoxVersion, boxVersion) > 0) continue;
    if (!best || compareVersions(v.manifest.version, best.manifest.version) > 0) best = v;
  }
  return best;
}

export interface PendingUpdate extends StoreUpdate {
  key: number;
}

/** Catalogs, their fetches and the settings of the Store; browsing and the check live beside it. */
export class StoreService {
  constructor(readonly deps: StoreDeps) {}

  async start(): Promise<void> {
    const { catalogs } = this.deps.models;
    for (const p of this.deps.projectCatalogs) {
      const row = await catalogs.findOne({ where: { catalogId: p.id } });
      if (!row) await catalogs.create({ catalogId: p.id, name: p.name, url: p.url, builtIn: true, enabled: true, state: 'new' });
      else if (row.url !== p.url || row.name !== p.name) await row.update({ url: p.url, name: p.name });
    }
    await this.settingsRow();
    for (const row of await catalogs.findAll()) await this.deps.copies.load(row.key, row.branch, row.commitId);
  }

  async settingsRow(): Promise<StoreSettingsRow> {
    const found = await this.deps.models.settings.findByPk(1);
    if (found) return found;
    return this.deps.models.settings.create({
      id: 1,
      policy: 'notify',
      dailyTime: '03:00',
      channel: 'stable',
      delayMinutes: chooseDelayMinutes(),
      lastCheckAt: new Date(this.deps.clock.now()).toISOString(),
    });
  }

  async settings(): Promise<StoreSettings> {
    const row = await this.settingsRow();
    const next = nextCheckAt(this.deps.clock.now(), { dailyTime: row.dailyTime, delayMinutes: row.delayMinutes, zone: this.deps.zone() });
    return { policy: row.policy, dailyTime: row.dailyTime, channel: row.channel, delayMinutes: row.delayMinutes, nextCheckAt: new Date(next).toISOString() };
  }

  async setSettings(request: StoreSettingsRequest, userId: number): Promise<StoreSettings> {
    const row = await this.settingsRow();
    const channelChanged = request.channel !== undefined && request.channel !== row.channel;
    await row.update(request);
    this.deps.logger.info('store settings changed', { logCode: 'store.settingsChanged', component: 'store', ...request });
    // A new channel reads other branches: every enabled catalog is fetched at once, each as its own job.
    if (channelChanged) for (const c of await this.deps.models.catalogs.findAll({ where: { enabled: true } })) await this.enqueueSync(c.key, userId);
    this.changed();
    return this.settings();
  }

  async catalogInfo(row: CatalogRow): Promise<CatalogInfo> {
    const copy = this.deps.copies.get(row.key);
    const ssh = isSshUrl(row.url) ? this.deps.copies.ssh(row.key) : null;
    return {
      key: row.key,
      id: row.catalogId,
      name: row.name,
      url: row.url,
      builtIn: row.builtIn,
      verified: row.builtIn,
      enabled: row.enabled,
      readToken: (row.readToken ?? null) !== null,
      state: row.state,
      lastError: row.parsedError,
      // A row just created has no value for these yet.
      lastFetchAt: row.lastFetchAt ?? null,
      verifiedAt: row.verifiedAt ?? null,
      commit: copy ? copy.commit : null,
      apps: copy ? copy.index.apps.length : 0,
      deployKey: ssh ? await deployPublicKey(ssh) : null,
      hostKey: ssh ? await pinnedHostKey(ssh).catch(() => null) : null,
    };
  }

  async row(key: number): Promise<CatalogRow> {
    const row = await this.deps.models.catalogs.findByPk(key);
    if (!row) throw new ProblemError('store.catalog.not_found', { key });
    return row;
  }

  async byId(catalogId: string): Promise<CatalogRow> {
    const row = await this.deps.models.catalogs.findOne({ where: { catalogId } });
    if (!row) throw new ProblemError('store.catalog.not_found', { catalog: catalogId });
    return row;
  }

  async state(): Promise<StoreState> {
    const rows = await this.deps.models.catalogs.findAll({ order: [['key', 'ASC']] });
    const catalogs = await Promise.all(rows.map((r) => this.catalogInfo(r)));
    const updates = (await this.updates()).map(({ key: _key, ...u }) => u);
    return { settings: await this.settings(), catalogs, updates };
  }

  /**
   * Newer versions of installed apps: the newest one this box can run, from the catalog each app came
   * from and no other, so a catalog cannot ship updates for an app it did not provide (an app
   * uploaded by hand gets none).
   */
  async updates(): Promise<PendingUpdate[]> {
    const [installed, rows, settings] = await Promise.all([
      this.deps.installed(),
      this.deps.models.catalogs.findAll({ where: { enabled: true } }),
      this.settingsRow(),
    ]);
    const found: PendingUpdate[] = [];
    for (const app of installed) {
      let best: PendingUpdate | null = null;
      for (const row of rows) {
        if (row.catalogId !== app.source) continue;
        const entry = this.deps.copies.get(row.key)?.index.apps.find((a) => a.id === app.id);
        const v = entry && newestRunnable(entry, this.deps.boxVersion);
        if (!v || compareVersions(v.manifest.version, app.version) <= 0) continue;
        if (best && compareVersions(v.manifest.version, best.version) <= 0) continue;
        best = {
          key: row.key,
          appId: app.id,
          catalog: row.catalogId,
          installedVersion: app.version,
          version: v.manifest.version,
          policy: app.updatePolicy ?? settings.policy,
        };
      }
      if (best) found.push(best);
    }
    return found;
  }

  async addCatalog(request: AddCatalogRequest, userId: number): Promise<CatalogInfo> {
    const { catalogs } = this.deps.models;
    if (request.url.startsWith('http://') && !this.deps.allowHttp) throw new ProblemError('store.catalog.url_refused', { url: request.url });
    if (await catalogs.findOne({ where: { url: request.url } })) throw new ProblemError('store.catalog.exists', { url: request.url });
    // Named after the repository when no name is given: the last part of its path that is not empty or `.git`.
    const fromUrl = request.url
      .split(/[/:]/)
      .map((part) => part.replace(/\.git$/, ''))
      .filter((part) => part !== '')
      .pop();
    const name = request.name ?? fromUrl ?? request.url;
    const row = await catalogs.create({ catalogId: `new-${Date.now()}`, name, url: request.url, builtIn: false, enabled: true, state: 'new' });
    await row.update({ catalogId: `custom-${row.key}` });
    // Private catalogs: the box's own deploy key, whose public half the administrator adds to the repository.
    if (isSshUrl(request.url)) await makeDeployKey(this.deps.copies.ssh(row.key), `cellar-store-${row.key}`);
    this.deps.logger.info('store catalog added', { logCode: 'store.catalogAdded', component: 'store', key: row.key, url: request.url });
    await this.enqueueSync(row.key, userId);
    this.changed();
    return this.catalogInfo(row);
  }

  async updateCatalog(key: number, request: UpdateCatalogRequest, userId: number): Promise<CatalogInfo> {
    const row = await this.row(key);
    const switchedOn = request.enabled === true && !row.enabled;
    if (request.enabled !== undefined) await row.update({ enabled: request.enabled });
    if (request.readToken !== undefined) await row.update({ readToken: request.readToken === '' ? null : request.readToken });
    this.deps.logger.info('store catalog changed', {
      logCode: 'store.catalogChanged',
      component: 'store',
      key,
      enabled: request.enabled,
      readToken: request.readToken === undefined ? undefined : request.readToken !== '',
    });
    if (switchedOn) await this.enqueueSync(key, userId);
    this.changed();
    return this.catalogInfo(row);
  }

  async removeCatalog(key: number): Promise<void> {
    const row = await this.row(key);
    if (row.builtIn) throw new ProblemError('store.catalog.built_in', { key });
    await row.destroy();
    await this.deps.copies.remove(key);
    this.deps.logger.info('store catalog removed', { logCode: 'store.catalogRemoved', component: 'store', key });
    this.changed();
  }

  async enqueueSync(key: number, userId: number | null): Promise<Job> {
    await this.row(key);
    return this.deps.jobs.enqueue(syncJob, { key }, userId);
  }

  /** Fetches one catalog; a failure keeps the last verified copy, is kept as the catalog's last error and thrown. */
  async fetchCatalog(key: number, signal?: AbortSignal): Promise<void> {
    const row = await this.row(key);
    const settings = await this.settingsRow();
    await row.update({ state: 'fetching' });
    this.changed();
    const at = new Date(this.deps.clock.now()).toISOString();
    try {
      const copy = await this.deps.copies.fetch({ key, url: row.url, branch: branchOf(settings.channel), signed: row.builtIn }, signal);
      await row.update({ state: 'ok', lastError: null, lastFetchAt: at, verifiedAt: at, commitId: copy.commit, branch: copy.branch });
      this.deps.logger.info('store catalog fetched', {
        logCode: 'store.catalogFetched',
        component: 'store',
        key,
        commit: copy.commit,
        apps: copy.index.apps.length,
      });
    } catch (err) {
      const problem = err instanceof ProblemError ? err : new ProblemError('store.fetch.failed', { reason: 'error' }, { cause: err });
      await row.update({
        state: 'failed',
        lastFetchAt: at,
        lastError: JSON.stringify({ code: problem.code, params: plainParams(problem.params), detail: problem.message, at }),
      });
      this.deps.logger.warn('store catalog fetch refused', {
        logCode: 'store.catalogFetchRefused',
        component: 'store',
        key,
        code: problem.code,
        ...problem.params,
      });
      throw problem;
    } finally {
      // Removed while it was fetched: the new copy goes too.
      if (!(await this.deps.models.catalogs.findByPk(key))) await this.deps.copies.remove(key);
      this.changed();
    }
  }

  /** Tells the administrators' Store (store/admin) the whole state again. */
  changed(): void {
    void this.state()
      .then((state) => this.deps.publisher.publish(topicName.storeAdmin, 'changed', state))
      .catch((err: unknown) => this.deps.logger.warn('store state not published', { component: 'store', error: String(err) }));
  }
}

/** The parameters a catalog's last error keeps: words and numbers, which the web puts in its message; lists are left out. */
function plainParams(params: Record<string, unknown> | undefined): Record<string, string | number> {
  return Object.fromEntries(Object.entries(params ?? {}).filter((e): e is [string, string | number] => typeof e[1] === 'string' || typeof e[1] === 'number'));
}
