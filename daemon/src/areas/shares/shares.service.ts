import { UniqueConstraintError } from 'sequelize';
import type {
  GrantLevel,
  NewShare,
  ShareAccess,
  ShareDetails,
  ShareGrants,
  ShareGrantsRequest,
  ShareInfo,
  ShareUpdate,
} from '../../../../shared/src/api/shares/shares.ts';
import { topicName } from '../../../../shared/src/topics.ts';
import type { Mode } from '../../config/config.ts';
import type { Logger } from '../../core/logger.ts';
import type { Principal } from '../../core/principal.ts';
import { ProblemError } from '../../core/problem-error.ts';
import type { TopicPublisher } from '../../core/topics/topic-provider.ts';
import { availableBytes, checkHostFolder } from './host-folder.ts';
import { satisfies, ShareAccessResolver, type AccessSubject } from './share-access.ts';
import type { ShareModels, ShareRow } from './share.model.ts';

/** A user as the grants view needs one. */
export interface ShareUser extends AccessSubject {
  username: string;
}

export interface SharesDeps {
  models: ShareModels;
  access: ShareAccessResolver;
  mode: Mode;
  dataDir: string;
  logger: Logger;
  topics: TopicPublisher;
  /** Every user, deactivated ones included. */
  listUsers(): Promise<ShareUser[]>;
  /** Whether a group exists; grants of unknown subjects are refused. */
  groupExists(groupId: number): Promise<boolean>;
  /** Open live topics are re-checked after a grant change (folder topics of a share no longer granted stop). */
  grantsChanged(): void;
  /** Host effects that follow shares and grants (Samba, SFTP, ACLs) re-apply after any change. */
  hostChanged?(): void;
}

/** The rules of shares: listing by access, registration of host folders, settings and grants. */
export class SharesService {
  constructor(private readonly deps: SharesDeps) {}

  async list(principal: Principal): Promise<ShareInfo[]> {
    const { shares } = this.deps.models;
    const rows = await shares.findAll({ order: [['name', 'ASC']] });
    if (principal.admin) return Promise.all(rows.map((row) => this.info(row, 'readWrite', true)));
    const access = await this.deps.access.accessByShare({ id: principal.id, admin: false, active: true });
    const usable = rows.filter((row) => (access.get(row.id) ?? 'none') !== 'none');
    return Promise.all(usable.map((row) => this.info(row, access.get(row.id) as 'read' | 'readWrite', false)));
  }

  /**
   * The share when the caller holds at least `need` on it. A share the caller may not use
   * at all answers the same as an absent one, so its existence stays hidden.
   */
  async requireAccess(principal: Principal, shareId: number, need: GrantLevel): Promise<ShareRow> {
    const row = await this.deps.models.shares.findByPk(shareId);
    if (!row) throw new ProblemError('fs.share.not_found', { shareId });
    const access = await this.accessOf(principal, shareId);
    if (access === 'none') throw new ProblemError('fs.share.not_found', { shareId });
    if (!satisfies(access, need)) throw new ProblemError('fs.share.read_only', { shareId });
    return row;
  }

  /** The caller's own access to a share, as the file API checks it (apps' mapped storage is held to it too). */
  accessOf(principal: Principal, shareId: number): Promise<ShareAccess> {
    return this.deps.access.accessTo({ id: principal.id, admin: principal.admin, active: true }, shareId);
  }

  /** A share's name as people know it (problem params); the caller was checked already. */
  async nameOf(shareId: number): Promise<string> {
    return (await this.deps.models.shares.findByPk(shareId))?.name ?? String(shareId);
  }

  /** Whether the caller may still read the share (topic re-checks). */
  async mayRead(principal: Principal, shareId: number): Promise<boolean> {
    const row = await this.deps.models.shares.findByPk(shareId);
    return row !== null && (await this.deps.access.accessTo({ id: principal.id, admin: principal.admin, active: true }, shareId)) !== 'none';
  }

  async create(body: NewShare): Promise<ShareInfo> {
    if (this.deps.mode !== 'development') throw new ProblemError('fs.share.folder_dev_only');
    const { shares } = this.deps.models;
    const others = await shares.findAll({ attributes: ['id', 'hostPath'] });
    const hostPath = await checkHostFolder(body.hostPath, this.deps.dataDir, others);
    const row = await this.uniqueName(body.name, () =>
      shares.create({
        name: body.name,
        description: body.description ?? '',
        hostPath,
        smbEnabled: body.smbEnabled ?? true,
        sftpEnabled: body.sftpEnabled ?? true,
        createdAt: new Date().toISOString(),
      }),
    );
    this.deps.logger.info('share registered', { logCode: 'shares.registered', component: 'shares', shareId: row.id, name: row.name, hostPath });
    this.changed();
    return this.info(row, 'readWrite', true);
  }

  /**
   * Registers a share on a dataset the storage area created through a plan (share.create), offered
   * over the services the plan names; homes name none (they are served as homes).
   */
  async registerDataset(share: { name: string; dataset: string; hostPath: string; services?: { smbEnabled: boolean; sftpEnabled: boolean } }): Promise<number> {
    const { shares } = this.deps.models;
    const row = await this.uniqueName(share.name, () =>
      shares.create({
        name: share.name,
        description: '',
        kind: 'dataset',
        dataset: share.dataset,
        hostPath: share.hostPath,
        smbEnabled: share.services?.smbEnabled ?? false,
        sftpEnabled: share.services?.sftpEnabled ?? false,
        createdAt: new Date().toISOString(),
      }),
    );
    this.deps.logger.info('dataset share registered', {
      logCode: 'shares.datasetRegistered',
      component: 'shares',
      shareId: row.id,
      name: row.name,
      dataset: share.dataset,
    });
    this.changed();
    return row.id;
  }

  /** Removes a share and its grants (share.delete); its files are the storage plan's business. */
  async removeShare(shareId: number): Promise<void> {
    const row = await this.find(shareId);
    await this.deps.models.grants.destroy({ where: { shareId } });
    await row.destroy();
    this.deps.logger.info('share removed', { logCode: 'shares.removed', component: 'shares', shareId, name: row.name });
    this.changed();
    this.deps.grantsChanged();
  }

  /** Name, dataset and host path of every share, for the storage area's plans. */
  async datasets(): Promise<{ id: number; name: string; dataset: string | null; hostPath: string; restorePoints: boolean }[]> {
    const rows = await this.deps.models.shares.findAll({ attributes: ['id', 'name', 'dataset', 'hostPath', 'restorePoints'] });
    return rows.map((r) => ({ id: r.id, name: r.name, dataset: r.dataset, hostPath: r.hostPath, restorePoints: r.restorePoints }));
  }

  /** A dataset share renamed or moved by the storage area (homes kept after their user, homes moved to another pool). */
  async relocateDataset(shareId: number, fields: { name?: string; dataset?: string; hostPath?: string }): Promise<void> {
    const row = await this.find(shareId);
    await this.uniqueName(fields.name ?? row.name, () => row.update(fields));
    this.deps.logger.info('dataset share relocated', { component: 'shares', shareId, ...fields });
    this.changed();
  }

  async details(): Promise<ShareDetails[]> {
    const rows = await this.deps.models.shares.findAll({ order: [['name', 'ASC']] });
    const users = await this.usersWithGroups();
    return Promise.all(rows.map((row) => this.detailsOf(row, users)));
  }

  async update(shareId: number, body: ShareUpdate): Promise<ShareDetails> {
    const row = await this.find(shareId);
    await this.uniqueName(body.name ?? row.name, () => row.update(body));
    this.deps.logger.info('share changed', { logCode: 'shares.changed', component: 'shares', shareId, name: row.name, fields: Object.keys(body) });
    this.changed();
    return this.detailsOf(row, await this.usersWithGroups());
  }

  async grants(shareId: number): Promise<ShareGrants> {
    await this.find(shareId);
    const grants = await this.deps.access.grantsOf(shareId);
    const users = await this.usersWithGroups();
    const effective = users.map(({ user, groupIds }) => ({
      userId: user.id,
      username: user.username,
      admin: user.admin,
      active: user.active,
      access: ShareAccessResolver.fromGrants(user, groupIds, grants),
    }));
    return { shareId, grants, effective };
  }

  async setGrants(shareId: number, body: ShareGrantsRequest): Promise<ShareGrants> {
    const share = await this.find(shareId);
    const userIds = new Set((await this.deps.listUsers()).map((u) => u.id));
    for (const grant of body.grants) {
      const known = grant.subjectType === 'user' ? userIds.has(grant.subjectId) : await this.deps.groupExists(grant.subjectId);
      if (!known) throw new ProblemError('fs.grant.subject_not_found', { subjectType: grant.subjectType, subjectId: grant.subjectId });
    }
    const { grants } = this.deps.models;
    await grants.sequelize!.transaction(async (transaction) => {
      await grants.destroy({ where: { shareId }, transaction });
      await grants.bulkCreate(
        body.grants.map((g) => ({ shareId, ...g })),
        { transaction },
      );
    });
    this.deps.logger.info('share grants replaced', {
      logCode: 'shares.grantsReplaced',
      component: 'shares',
      shareId,
      name: share.name,
      grants: body.grants.length,
    });
    this.changed();
    this.deps.grantsChanged();
    return this.grants(shareId);
  }

  async setRestorePoints(shareId: number, enabled: boolean): Promise<void> {
    const row = await this.find(shareId);
    // Restore points are snapshots of the share's dataset; a plain folder has none to take.
    if (row.dataset === null) throw new ProblemError('fs.share.no_dataset');
    await row.update({ restorePoints: enabled });
    this.changed();
  }

  async setTrashRetention(shareId: number, retentionDays: number): Promise<void> {
    const row = await this.find(shareId);
    // The purge reads the retention when it runs, so items already in the bin follow the new value.
    await row.update({ trashRetentionDays: retentionDays });
    this.deps.logger.info('share trash retention changed', {
      logCode: 'shares.trashRetentionChanged',
      component: 'shares',
      shareId,
      name: row.name,
      retentionDays,
    });
    this.changed();
  }

  private async find(shareId: number): Promise<ShareRow> {
    const row = await this.deps.models.shares.findByPk(shareId);
    if (!row) throw new ProblemError('fs.share.not_found', { shareId });
    return row;
  }

  private async uniqueName<T>(name: string, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      if (err instanceof UniqueConstraintError) throw new ProblemError('fs.share.name_taken', { name });
      throw err;
    }
  }

  private changed(): void {
    this.deps.topics.publish(topicName.sharesList, 'changed', {});
    this.deps.hostChanged?.();
  }

  private async usersWithGroups(): Promise<{ user: ShareUser; groupIds: number[] }[]> {
    const users = await this.deps.listUsers();
    return Promise.all(users.map(async (user) => ({ user, groupIds: await this.deps.access.groupIdsOf(user.id) })));
  }

  private async info(row: ShareRow, access: 'read' | 'readWrite', admin: boolean): Promise<ShareInfo> {
    return {
      id: row.id,
      name: row.name,
      description: row.description,
      kind: row.kind,
      access,
      hostPath: admin ? row.hostPath : null,
      availableBytes: await availableBytes(row.hostPath),
    };
  }

  private async detailsOf(row: ShareRow, users: { user: ShareUser; groupIds: number[] }[]): Promise<ShareDetails> {
    const grants = await this.deps.access.grantsOf(row.id);
    const levels = users.map(({ user, groupIds }) => ShareAccessResolver.fromGrants(user, groupIds, grants));
    const { access: _access, ...info } = await this.info(row, 'readWrite', true);
    return {
      ...info,
      dataset: row.dataset,
      smbEnabled: row.smbEnabled,
      smbEncrypt: row.smbEncrypt,
      sftpEnabled: row.sftpEnabled,
      restorePoints: row.restorePoints,
      trashRetentionDays: row.trashRetentionDays,
      readers: levels.filter((l) => l === 'read').length,
      writers: levels.filter((l) => l === 'readWrite').length,
    };
  }
}
