import { Op } from 'sequelize';
import type { GrantLevel, ShareAccess, ShareGrant } from '../../../../shared/src/api/shares/shares.ts';
import type { ShareGrantRow } from './share.model.ts';

/** What effective access needs to know of a user. */
export interface AccessSubject {
  id: number;
  admin: boolean;
  active: boolean;
}

export interface ShareAccessDeps {
  grants: typeof ShareGrantRow;
  /** Groups the user belongs to (the built-in group of every user included, where it has an id). */
  groupIdsOf(userId: number): Promise<number[]>;
}

const rank: Record<ShareAccess, number> = { none: 0, read: 1, readWrite: 2 };

/** The strongest of the levels: access is the union of own and group grants. */
export function strongest(levels: Iterable<ShareAccess>): ShareAccess {
  let best: ShareAccess = 'none';
  for (const level of levels) if (rank[level] > rank[best]) best = level;
  return best;
}

export function satisfies(access: ShareAccess, need: GrantLevel): boolean {
  return rank[access] >= rank[need];
}

/**
 * Effective share access, computed from the grant rows on every call so a grant change
 * applies to the very next request: administrators read and write everything, a
 * deactivated user has nothing, everybody else the union of own and group grants.
 */
export class ShareAccessResolver {
  constructor(private readonly deps: ShareAccessDeps) {}

  /** Access to every share the user has any grant on, by share id. */
  async accessByShare(user: AccessSubject): Promise<Map<number, ShareAccess>> {
    const result = new Map<number, ShareAccess>();
    if (!user.active) return result;
    const rows = await this.rowsFor(user.id);
    for (const row of rows) result.set(row.shareId, strongest([result.get(row.shareId) ?? 'none', row.level]));
    return result;
  }

  async accessTo(user: AccessSubject, shareId: number): Promise<ShareAccess> {
    if (!user.active) return 'none';
    if (user.admin) return 'readWrite';
    const rows = await this.rowsFor(user.id, shareId);
    return strongest(rows.map((r) => r.level));
  }

  /** The share's grants as stored, users first, then groups, each by id. */
  async grantsOf(shareId: number): Promise<ShareGrant[]> {
    const rows = await this.deps.grants.findAll({
      where: { shareId },
      order: [
        ['subjectType', 'DESC'],
        ['subjectId', 'ASC'],
      ],
    });
    return rows.map((r) => ({ subjectType: r.subjectType, subjectId: r.subjectId, level: r.level }));
  }

  /** Effective access from a share's grants for a user with known groups (the grants view). */
  static fromGrants(user: AccessSubject, groupIds: readonly number[], grants: readonly ShareGrant[]): ShareAccess {
    if (!user.active) return 'none';
    if (user.admin) return 'readWrite';
    const groups = new Set(groupIds);
    const levels = grants.filter((g) => (g.subjectType === 'user' ? g.subjectId === user.id : groups.has(g.subjectId))).map((g) => g.level);
    return strongest(levels);
  }

  groupIdsOf(userId: number): Promise<number[]> {
    return this.deps.groupIdsOf(userId);
  }

  private async rowsFor(userId: number, shareId?: number): Promise<ShareGrantRow[]> {
    const groupIds = await this.deps.groupIdsOf(userId);
    const subjects = [{ subjectType: 'user', subjectId: userId }, ...(groupIds.length ? [{ subjectType: 'group', subjectId: { [Op.in]: groupIds } }] : [])];
    return this.deps.grants.findAll({ where: { ...(shareId === undefined ? {} : { shareId }), [Op.or]: subjects } });
  }
}
