import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Sequelize } from 'sequelize';
import type { MissingDataset } from '../../../../shared/src/api/backup/backup.ts';
import type { Mode } from '../../config/config.ts';
import { ProblemError } from '../../core/problem-error.ts';
import type { BackupPart } from '../backup-part.ts';
import { checkRows, idsOf, readRows, replaceRows, syncRows, type Row } from '../backup-rows.ts';
import { shareRootOf } from './share-layout.ts';
import { isSystemFolder, overlaps } from './host-folder.ts';

export interface SharesBackup {
  shares: Row[];
  grants: Row[];
  /** Homes are shares of the home pool with their user. */
  homes: Row[];
}

/** The datasets of this box's own pools (a box reads them with zfs). */
export interface BoxDatasets {
  /** Pools that may hold shares: every imported pool but the system's. */
  sharePools(): Promise<string[]>;
  /** Where a dataset mounts here, or null when this box has no such dataset. */
  mountpoint(dataset: string): Promise<string | null>;
}

export interface SharesBackupDeps {
  db: Sequelize;
  changed: () => void;
  mode: Mode;
  /** The daemon's data directory: no share reaches into it. */
  dataDir: string;
  /** On a box: its pools' datasets, the only places a share may be. */
  datasets: BoxDatasets;
}

/** Shares with their SMB, SFTP and restore point settings, grants and homes (the shares part of a backup). */
export function sharesBackupPart(deps: SharesBackupDeps): BackupPart<SharesBackup> {
  const { db } = deps;
  return {
    name: 'shares',
    // Share grants point at users and groups; Samba and SFTP, applied after, read who holds the SMB and SFTP rights.
    after: ['users', 'groups', 'permissions'],
    async export() {
      return { shares: await readRows(db, 'shares'), grants: await readRows(db, 'share_grants'), homes: await readRows(db, 'storage_homes') };
    },
    async inspect(raw) {
      if (typeof raw !== 'object' || raw === null) throw new ProblemError('backup.part.invalid', { part: 'shares' }, { detail: 'not an object' });
      const value = raw as Record<string, unknown>;
      const shares = await checkRows(db, 'shares', 'shares', value.shares);
      const grants = await checkRows(db, 'shares', 'share_grants', value.grants);
      const homes = await checkRows(db, 'shares', 'storage_homes', value.homes);
      await checkFolders(shares, deps);
      const ids = new Set(shares.map((s) => s.id));
      if (![...grants, ...homes].every((r) => ids.has(r.share_id ?? null)))
        throw new ProblemError('backup.part.invalid', { part: 'shares' }, { detail: 'a grant or home of a share not in the backup' });
      const counts = { shares: shares.length - homes.length, homes: homes.length, shareGrants: grants.length };
      return { data: { shares, grants, homes }, counts, missingDatasets: await sharesWithoutDataset(shares) };
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

/**
 * A backup's shares may sit only where this box lets a share be made by hand (issue 27): on a box,
 * the share tree of a dataset of its own pools (a dataset the box lacks leaves a folder that is not
 * there); in development mode, a folder outside the host's own trees. Nowhere in the data
 * directory, and no share inside another. Checked on the real path, so a link leads nowhere else.
 */
export async function checkFolders(shares: readonly Row[], deps: Pick<SharesBackupDeps, 'mode' | 'dataDir' | 'datasets'>): Promise<void> {
  const dataReal = await realpath(deps.dataDir).catch(() => path.resolve(deps.dataDir));
  const pools = deps.mode === 'box' ? await deps.datasets.sharePools() : [];
  const seen: string[] = [];
  for (const share of shares) {
    const refuse = (reason: string) => new ProblemError('backup.share.folder_refused', { share: String(share.name), reason });
    const hostPath = share.host_path;
    if (typeof hostPath !== 'string' || hostPath.includes('\0') || !path.isAbsolute(hostPath) || path.resolve(hostPath) !== hostPath)
      throw refuse('notAbsolute');
    const real = await realpath(hostPath).catch(() => null);
    // Shares are stored by real path: a link on the way would lead the share somewhere else.
    if (real !== null && real !== hostPath) throw refuse('link');
    const where = real ?? hostPath;
    if (isSystemFolder(where)) throw refuse('system');
    if (overlaps(where, dataReal)) throw refuse('dataDirectory');
    if (seen.some((other) => overlaps(where, other))) throw refuse('overlaps');
    seen.push(where);
    if (deps.mode === 'box') {
      const dataset = typeof share.dataset === 'string' ? share.dataset : null;
      if (share.kind !== 'dataset' || dataset === null) throw refuse('notDataset');
      if (!pools.includes(dataset.split('/')[0] ?? '')) {
        // A dataset of a pool this box lacks: restored without files, so its folder must not be here either.
        if (real !== null) throw refuse('notOnPool');
        continue;
      }
      const mountpoint = await deps.datasets.mountpoint(dataset);
      if (mountpoint === null ? real !== null : hostPath !== shareRootOf(mountpoint)) throw refuse('notDatasetFolder');
    }
  }
}

/** Shares of a backup whose folder (the dataset's mount point) this box does not have: its pools differ. */
async function sharesWithoutDataset(shares: readonly Row[]): Promise<MissingDataset[]> {
  const missing: MissingDataset[] = [];
  for (const share of shares) {
    const hostPath = String(share.host_path);
    const isDir = await stat(hostPath).then(
      (s) => s.isDirectory(),
      () => false,
    );
    if (!isDir) missing.push({ name: String(share.name), dataset: share.dataset === null ? null : String(share.dataset), hostPath });
  }
  return missing;
}
