import Joi from 'joi';
import type { Sequelize, Transaction } from 'sequelize';
import { systemRegion, type SystemRegion } from '../../../../shared/src/api/system/system.ts';
import { ProblemError } from '../../core/problem-error.ts';
import type { BackupPart } from '../backup-part.ts';
import type { SystemService } from './system.service.ts';

/** The region part: language and region, and the box's name (set at first run; null on a development daemon). */
export type RegionBackup = SystemRegion & { boxName?: string | null };

// Backups made before the box name joined the part lack it: absent leaves the name as it is.
const regionBackupSchema = (systemRegion as unknown as Joi.ObjectSchema<RegionBackup>).keys({
  boxName: Joi.string().trim().min(1).max(64).allow(null).optional(),
});

function upsert(db: Sequelize, key: string, value: unknown, transaction: Transaction) {
  return db.query(
    'INSERT INTO system_settings (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at',
    { replacements: [key, JSON.stringify(value), new Date().toISOString()], transaction },
  );
}

/** The box's language, region and name (the region part of a backup). */
export function regionBackupPart(deps: { db: Sequelize; system: SystemService }): BackupPart<RegionBackup> {
  return {
    name: 'region',
    export: async () => ({ ...(await deps.system.region()), boxName: await deps.system.boxName() }),
    async inspect(raw) {
      const { value, error } = regionBackupSchema.validate(raw, { presence: 'required' });
      if (error) throw new ProblemError('backup.part.invalid', { part: 'region' }, { detail: error.message });
      return { data: value, counts: { settings: value.boxName ? 2 : 1 } };
    },
    async restore(data, transaction) {
      await upsert(deps.db, 'region', { language: data.language, region: data.region }, transaction);
      if (data.boxName) await upsert(deps.db, 'boxName', data.boxName, transaction);
    },
  };
}
