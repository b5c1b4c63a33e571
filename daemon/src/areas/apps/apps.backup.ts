import { QueryTypes, type Sequelize } from 'sequelize';
import { ProblemError } from '../../core/problem-error.ts';
import type { BackupPart } from '../backup/backup-part.ts';
import { checkRows, type Row } from '../backup/table-rows.ts';

export interface AppsBackup {
  /** Each app's settings only: id, version (for the summary), log level, update policy, revoked permissions. */
  apps: Row[];
  mappings: Row[];
}

const settingColumns = ['id', 'version', 'log_level', 'update_policy', 'revoked'] as const;

/**
 * Installed apps' settings and storage mappings (the apps part of a backup); their packages and
 * data are not in it. A restore sets them on the apps this box has installed; others are skipped.
 */
export function appsBackupPart(deps: { db: Sequelize }): BackupPart<AppsBackup> {
  const { db } = deps;
  return {
    name: 'apps',
    async export() {
      const apps = await db.query<Row>(`SELECT ${settingColumns.join(', ')} FROM apps ORDER BY id`, { type: QueryTypes.SELECT });
      const mappings = await db.query<Row>('SELECT * FROM app_storage_mappings ORDER BY app_id, storage_id', { type: QueryTypes.SELECT });
      return { apps, mappings };
    },
    async inspect(raw) {
      const invalid = (detail: string) => new ProblemError('backup.part.invalid', { part: 'apps' }, { detail });
      if (typeof raw !== 'object' || raw === null) throw invalid('not an object');
      const value = raw as Record<string, unknown>;
      const apps = await checkRows(db, 'apps', 'apps', value.apps);
      if (!apps.every((a) => Object.keys(a).every((k) => (settingColumns as readonly string[]).includes(k)) && typeof a.id === 'string'))
        throw invalid('an app entry holds more than its settings');
      const mappings = await checkRows(db, 'apps', 'app_storage_mappings', value.mappings);
      return { data: { apps, mappings }, counts: { apps: apps.length, storageMappings: mappings.length } };
    },
    async restore(data, transaction) {
      const installed = new Set((await db.query<{ id: string }>('SELECT id FROM apps', { type: QueryTypes.SELECT, transaction })).map((r) => r.id));
      for (const app of data.apps.filter((a) => installed.has(String(a.id))))
        await db.query('UPDATE apps SET log_level = ?, update_policy = ?, revoked = ? WHERE id = ?', {
          replacements: [app.log_level ?? 'info', app.update_policy ?? null, app.revoked ?? '[]', app.id],
          transaction,
        });
      const mine = data.mappings.filter((m) => installed.has(String(m.app_id)));
      await db.query('DELETE FROM app_storage_mappings', { transaction });
      for (const m of mine)
        await db.query('INSERT INTO app_storage_mappings (app_id, storage_id, share_id, path, access) VALUES (?, ?, ?, ?, ?)', {
          replacements: [m.app_id, m.storage_id, m.share_id, m.path, m.access],
          transaction,
        });
    },
  };
}
