import type { Sequelize } from 'sequelize';
import { systemRegion, type SystemRegion } from '../../../../shared/src/api/system.ts';
import { ProblemError } from '../../core/problem-error.ts';
import type { BackupPart } from '../backup/backup-part.ts';
import type { SystemService } from './system.service.ts';

/** The box's language and region (the region part of a backup). */
export function regionBackupPart(deps: { db: Sequelize; system: SystemService }): BackupPart<SystemRegion> {
  return {
    name: 'region',
    export: () => deps.system.region(),
    async inspect(raw) {
      const { value, error } = systemRegion.validate(raw, { presence: 'required' });
      if (error) throw new ProblemError('backup.part.invalid', { part: 'region' }, { detail: error.message });
      return { data: value, counts: { settings: 1 } };
    },
    async restore(data, transaction) {
      await deps.db.query(
        "INSERT INTO system_settings (key, value, updated_at) VALUES ('region', ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
        { replacements: [JSON.stringify({ language: data.language, region: data.region }), new Date().toISOString()], transaction },
      );
    },
  };
}
