import { stat } from 'node:fs/promises';
import type { Sequelize } from 'sequelize';
import type { MissingDataset } from '../../../../shared/src/api/backup.ts';
import { ProblemError } from '../../core/problem-error.ts';
import type { BackupPart } from '../backup/backup-part.ts';
import { checkRows, idsOf, readRows, replaceRows, syncRows, type Row } from '../backup/table-rows.ts';

export interface SharesBackup {
  shares: Row[];
  grants: Row[];
  /** Homes are shares of the home pool with their user. */
  homes: Row[];
}

/** Shares with their SMB, SFTP and restore point settings, grants and homes (the shares part of a backup). */
export function sharesBackupPart(deps: { db: Sequelize; changed: () => void }): BackupPart<SharesBackup> {
  const { db } = deps;
  return {
    name: 'shares',
    async export() {
      return { shares: await readRows(db, 'shares'), grants: await readRows(db, 'share_grants'), homes: await readRows(db, 'storage_homes') };
    },
    async inspect(raw) {
      if (typeof raw !== 'object' || raw === null) throw new ProblemError('backup.part.invalid', { part: 'shares' }, { detail: 'not an object' });
      const value = raw as Record<string, unknown>;
      const shares = await checkRows(db, 'shares', 'shares', value.shares);
      const grants = await checkRows(db, 'shares', 'share_grants', value.grants);
      const homes = await checkRows(db, 'shares', 'storage_homes', value.homes);
      const ids = new Set(shares.map((s) => s.id));
      if (![...grants, ...homes].every((r) => ids.has(r.share_id ?? null)))
        throw new ProblemError('backup.part.invalid', { part: 'shares' }, { detail: 'a grant or home of a share not in the backup' });
      return { data: { shares, grants, homes }, counts: { shares: shares.length - homes.length, homes: homes.length, shareGrants: grants.length } };
    },
    async restore(data, transaction) {
      await syncRows(db, 'shares', data.shares, transaction, { key: 'id', temporary: { name: "'~restore~' || id", host_path: "'~restore~' || id" } });
      const users = await idsOf(db, 'users', transaction);
      const groups = await idsOf(db, 'groups', transaction);
      const subjects = { user: users, group: groups } as Record<string, Set<number>>;
      await replaceRows(
        db,
        'share_grants',
        data.grants.filter((g) => subjects[String(g.subject_type)]?.has(Number(g.subject_id))),
        transaction,
      );
      await replaceRows(db, 'storage_homes', data.homes, transaction);
    },
    // Samba, SFTP and ACLs follow the shares at the restart; the change hook applies them at once too.
    apply: async () => deps.changed(),
  };
}

/** Shares of a backup whose folder (the dataset's mount point) this box does not have: its pools differ. */
export async function sharesWithoutDataset(data: SharesBackup): Promise<MissingDataset[]> {
  const missing: MissingDataset[] = [];
  for (const share of data.shares) {
    const hostPath = String(share.host_path);
    const isDir = await stat(hostPath).then(
      (s) => s.isDirectory(),
      () => false,
    );
    if (!isDir) missing.push({ name: String(share.name), dataset: share.dataset === null ? null : String(share.dataset), hostPath });
  }
  return missing;
}
