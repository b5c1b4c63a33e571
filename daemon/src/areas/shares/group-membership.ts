import { QueryTypes, type Sequelize } from 'sequelize';

/**
 * Groups a user belongs to, for effective share access: the built-in group every user is in
 * plus the explicit memberships. The identity area's GroupsService offers no such lookup yet,
 * so this reads its two tables directly (read only); swap it for that service's method once
 * there is one. Without those tables (an older database) a user is in no group.
 */
export function groupMembership(db: Sequelize): { groupIdsOf(userId: number): Promise<number[]>; groupExists(groupId: number): Promise<boolean> } {
  const tablesExist = async () => {
    const rows = await db.query<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('groups', 'group_members')", {
      type: QueryTypes.SELECT,
    });
    return rows.length === 2;
  };
  return {
    async groupIdsOf(userId) {
      if (!(await tablesExist())) return [];
      const rows = await db.query<{ id: number }>(
        'SELECT g.id AS id FROM groups g WHERE g.built_in = 1 OR EXISTS (SELECT 1 FROM group_members m WHERE m.group_id = g.id AND m.user_id = $userId)',
        {
          type: QueryTypes.SELECT,
          bind: { userId },
        },
      );
      return rows.map((r) => r.id);
    },
    async groupExists(groupId) {
      if (!(await tablesExist())) return false;
      const rows = await db.query('SELECT 1 FROM groups WHERE id = $groupId', { type: QueryTypes.SELECT, bind: { groupId } });
      return rows.length > 0;
    },
  };
}
