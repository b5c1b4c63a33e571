import type { Sequelize } from 'sequelize';
import { ProblemError } from '../../core/problem-error.ts';
import type { BackupPart } from '../backup-part.ts';
import { checkRows, readRows, replaceRows, type Row } from '../backup-rows.ts';

export interface StorageBackup {
  schedules: Row[];
  snapshotSchedules: Row[];
  homeSettings: Row[];
}

/** Scrub, SMART and snapshot schedules and home settings (the storage part of a backup); pools and files are not in it. */
export function storageBackupPart(deps: { db: Sequelize }): BackupPart<StorageBackup> {
  const { db } = deps;
  const tables = { schedules: 'storage_schedules', snapshotSchedules: 'storage_snapshot_schedules', homeSettings: 'storage_home_settings' } as const;
  return {
    name: 'storage',
    async export() {
      return {
        schedules: await readRows(db, tables.schedules),
        snapshotSchedules: await readRows(db, tables.snapshotSchedules),
        homeSettings: await readRows(db, tables.homeSettings),
      };
    },
    async inspect(raw) {
      if (typeof raw !== 'object' || raw === null) throw new ProblemError('backup.part.invalid', { part: 'storage' }, { detail: 'not an object' });
      const value = raw as Record<string, unknown>;
      const data = {
        schedules: await checkRows(db, 'storage', tables.schedules, value.schedules),
        snapshotSchedules: await checkRows(db, 'storage', tables.snapshotSchedules, value.snapshotSchedules),
        homeSettings: await checkRows(db, 'storage', tables.homeSettings, value.homeSettings),
      };
      return { data, counts: { schedules: data.schedules.length + data.snapshotSchedules.length } };
    },
    async restore(data, transaction) {
      for (const key of Object.keys(tables) as (keyof typeof tables)[]) await replaceRows(db, tables[key], data[key], transaction);
    },
  };
}
