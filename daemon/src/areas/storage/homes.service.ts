import type { HomeOverview, HomeSettingsRequest } from '../../../../shared/src/api/storage/homes.ts';
import type { Job } from '../../../../shared/src/api/jobs/jobs.ts';
import type { HomeDisposal } from '../../../../shared/src/api/identity/users.ts';
import { ProblemError } from '../../core/problem-error.ts';
import { numberProp } from '../../host/zfs/zfs-get.ts';
import { makeShareTree } from '../shares/share-layout.ts';
import type { HomesDeps, HomeSteps } from './homes-deps.ts';
import { HomeDisposals } from './homes-disposal.ts';
import { effectiveQuota, refquota } from './home-quota.ts';
import type { HomeRow, HomeSettingsRow } from './homes.model.ts';

export const homeReleaseJob = 'storage.homes.release';
export const homeMoveJob = 'storage.homes.move';

/** Homes on the home pool: one dataset per user with a refquota, kept as `<name>.deleted-<uid>` after the user. */
export class HomesService implements HomeSteps {
  private readonly disposals: HomeDisposals;

  constructor(private readonly deps: HomesDeps) {
    this.disposals = new HomeDisposals(deps, this);
  }

  /** Before a user is deleted: refuses a disposal of their home that is bound to fail (homes-disposal.ts). */
  check(user: { id: number }, home: HomeDisposal | undefined, shareId: number | undefined): Promise<void> {
    return this.disposals.check(user, home, shareId);
  }

  /** After a user was deleted: keeps, deletes or moves their home (homes-disposal.ts). */
  dispose(user: { id: number; username: string; uid: number }, home: HomeDisposal, shareId: number | undefined, actorId: number) {
    return this.disposals.dispose(user, home, shareId, actorId);
  }

  async settings(): Promise<HomeSettingsRow> {
    const [row] = await this.deps.models.settings.findOrCreate({ where: { id: 1 }, defaults: { id: 1, homePool: null, defaultQuotaBytes: null } });
    return row;
  }

  async overview(): Promise<HomeOverview> {
    const { zfs, models } = this.deps;
    const settings = await this.settings();
    const pools = await zfs.listPools();
    const rows = await models.homes.findAll({ order: [['folder', 'ASC']] });
    const objects = new Map<string, number | null>();
    for (const pool of new Set(rows.map((r) => r.dataset.split('/')[0] ?? ''))) {
      for (const o of await zfs.objects(`${pool}/homes`, 1)) objects.set(o.name, numberProp(o, 'used'));
    }
    return {
      homePool: settings.homePool,
      pools: pools.map((p) => ({ name: p.name, canHoldHomes: usable(p.health) })),
      defaultQuotaBytes: settings.defaultQuotaBytes,
      homes: rows.map((r) => ({
        shareId: r.shareId,
        userId: r.userId,
        username: r.username,
        folder: r.folder,
        deleted: r.userId === null,
        dataset: r.dataset,
        pool: r.dataset.split('/')[0] ?? '',
        usedBytes: objects.get(r.dataset) ?? null,
        quotaBytes: r.quotaBytes,
        effectiveQuotaBytes: effectiveQuota(r.quotaBytes, settings.defaultQuotaBytes),
      })),
    };
  }

  async setSettings(body: HomeSettingsRequest): Promise<HomeOverview> {
    const settings = await this.settings();
    if (body.homePool !== undefined && body.homePool !== settings.homePool) {
      await this.requireUsablePool(body.homePool);
      if ((await this.deps.models.homes.count()) > 0) throw new ProblemError('homes.pool.has_homes', { pool: body.homePool });
      await settings.update({ homePool: body.homePool });
    }
    await settings.update({ defaultQuotaBytes: body.defaultQuotaBytes });
    // Homes without their own quota follow the default at once.
    for (const row of await this.deps.models.homes.findAll({ where: { quotaBytes: null } })) await this.applyQuota(row, body.defaultQuotaBytes);
    return this.overview();
  }

  async setQuota(userId: number, quotaBytes: number | null): Promise<HomeOverview> {
    const row = await this.deps.models.homes.findOne({ where: { userId } });
    if (!row) throw new ProblemError('homes.home.not_found', { userId });
    await row.update({ quotaBytes });
    await this.applyQuota(row, effectiveQuota(quotaBytes, (await this.settings()).defaultQuotaBytes));
    return this.overview();
  }

  /** The home of a new user, when there is a home pool. */
  async create(user: { id: number; username: string; uid: number }): Promise<void> {
    const settings = await this.settings();
    if (!settings.homePool) return;
    const dataset = `${settings.homePool}/homes/${user.username}`;
    // The home's files are the dataset's `files` folder, owned by the user; the mount point stays root's.
    const hostPath = await makeShareTree(await this.makeDataset(dataset, effectiveQuota(null, settings.defaultQuotaBytes)), user.uid);
    const shareId = await this.deps.shares.register({ name: user.username, dataset, hostPath });
    await this.deps.shares.grantOwner(shareId, user.id);
    await this.deps.models.homes.create({ shareId, userId: user.id, username: user.username, uid: user.uid, folder: user.username, dataset, quotaBytes: null });
    this.deps.logger.info('home created', { logCode: 'storage.homeCreated', component: 'storage', userId: user.id, dataset });
  }

  async paths(): Promise<Map<number, string>> {
    const out = new Map<number, string>();
    for (const row of await this.deps.models.homes.findAll()) {
      const hostPath = row.userId === null ? null : await this.deps.shares.hostPath(row.shareId);
      if (row.userId !== null && hostPath) out.set(row.userId, hostPath);
    }
    return out;
  }

  async delete(shareId: number, confirm: string): Promise<void> {
    const row = await this.deletedHome(shareId);
    if (confirm !== row.folder) throw new ProblemError('homes.confirm.mismatch', { expected: 'the folder name' });
    await this.destroy(row);
  }

  async release(shareId: number, targetShareId: number, actorId: number): Promise<Job> {
    await this.deletedHome(shareId);
    if ((await this.deps.shares.hostPath(targetShareId)) === null) throw new ProblemError('fs.share.not_found', { shareId: targetShareId });
    return this.deps.enqueue(homeReleaseJob, { shareId, targetShareId }, actorId);
  }

  async move(pool: string, actorId: number): Promise<Job> {
    await this.requireUsablePool(pool);
    if ((await this.settings()).homePool === pool) throw new ProblemError('homes.pool.same', { pool });
    return this.deps.enqueue(homeMoveJob, { pool }, actorId);
  }

  /** Destroys the home's dataset with every snapshot, its share and its row. */
  async destroy(row: HomeRow): Promise<void> {
    if (await this.deps.zfs.exists(row.dataset)) await this.destroyDataset(row.dataset);
    await this.deps.shares.remove(row.shareId);
    await row.destroy();
    this.deps.logger.info('home destroyed', { logCode: 'storage.homeDestroyed', component: 'storage', dataset: row.dataset });
  }

  /** Creates `<pool>/homes` when missing, then the dataset; answers its mount point. */
  async makeDataset(dataset: string, quota: number | null): Promise<string> {
    const parent = dataset.slice(0, dataset.lastIndexOf('/'));
    if (!(await this.deps.zfs.exists(parent))) await this.command(['zfs', 'create', parent]);
    await this.command(['zfs', 'create', '-o', refquota(quota), dataset]);
    return this.mountpoint(dataset);
  }

  async mountpoint(dataset: string): Promise<string> {
    const [object] = await this.deps.zfs.objects(dataset, 0);
    const mountpoint = object?.props.get('mountpoint');
    if (!mountpoint?.startsWith('/')) throw new ProblemError('storage.dataset.not_found', { dataset });
    return mountpoint;
  }

  async destroyDataset(dataset: string, signal?: AbortSignal): Promise<void> {
    await this.command(['zfs', 'destroy', '-f', '-r', dataset], signal);
  }

  /** Runs one command; zfs-fuse answers "dataset is busy" for a moment after a file system was used, so that is tried again. */
  async command(argv: string[], signal?: AbortSignal): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const r = await this.deps.zfs.run(argv, signal);
      if (r.exitCode === 0) return;
      if (attempt >= 20 || !/busy/i.test(r.stderr))
        throw new ProblemError('storage.command.failed', { command: argv, exitCode: r.exitCode, output: (r.stderr + r.stdout).trim().slice(0, 4000) });
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  private async deletedHome(shareId: number): Promise<HomeRow> {
    const row = await this.deps.models.homes.findByPk(shareId);
    if (!row) throw new ProblemError('homes.home.not_found', { shareId });
    if (row.userId !== null) throw new ProblemError('homes.home.in_use', { shareId });
    return row;
  }

  private async applyQuota(row: HomeRow, quota: number | null): Promise<void> {
    await this.command(['zfs', 'set', refquota(quota), row.dataset]);
  }

  private async requireUsablePool(pool: string): Promise<void> {
    const found = (await this.deps.zfs.listPools()).find((p) => p.name === pool);
    if (!found) throw new ProblemError('storage.pool.not_found', { pool });
    if (!usable(found.health)) throw new ProblemError('homes.pool.unusable', { pool });
  }
}

function usable(health: string): boolean {
  return health === 'ONLINE' || health === 'DEGRADED';
}
