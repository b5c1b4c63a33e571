import { QueryTypes, type Sequelize } from 'sequelize';
import type { AppManifest } from '../../../../shared/src/api/apps/app-manifest.ts';
import { ProblemError } from '../../core/problem-error.ts';
import type { BackupPart } from '../backup-part.ts';
import { checkRows, idsOf, type Row } from '../backup-rows.ts';
import { parseRelPath } from '../files/safe-path.ts';

export interface AppsBackup {
  /** Each app's settings only: id, version (for the summary), log level, update policy, revoked permissions. */
  apps: Row[];
  mappings: Row[];
  /** Each app's name by id, for saying which apps a restore skipped (absent in backups of older versions). */
  names?: Record<string, string>;
}

/** The columns of `apps` the part carries: an app's package, manifest and state are the box's, never the backup's. */
const settingColumns = ['id', 'version', 'log_level', 'update_policy', 'revoked'] as const;
const mappingColumns = ['app_id', 'storage_id', 'share_id', 'path', 'access'] as const;

/**
 * Installed apps' settings and storage mappings (the apps part of a backup); their packages and
 * data are not in it. A restore sets them on the apps this box has installed; the others are
 * skipped and named in the restore's answer, as are mappings the installed app no longer asks for
 * or whose share is not on the box.
 */
export function appsBackupPart(deps: { db: Sequelize }): BackupPart<AppsBackup> {
  const { db } = deps;
  const nameOf = (data: AppsBackup, id: unknown) => data.names?.[String(id)] ?? String(id);
  return {
    name: 'apps',
    // Storage mappings point at shares.
    after: ['shares'],
    async export() {
      const apps = await db.query<Row>(`SELECT ${settingColumns.join(', ')} FROM apps ORDER BY id`, { type: QueryTypes.SELECT });
      const mappings = await db.query<Row>(`SELECT ${mappingColumns.join(', ')} FROM app_storage_mappings ORDER BY app_id, storage_id`, {
        type: QueryTypes.SELECT,
      });
      const manifests = await db.query<{ id: string; manifest: string }>('SELECT id, manifest FROM apps', { type: QueryTypes.SELECT });
      const names = Object.fromEntries(manifests.map((m) => [m.id, (JSON.parse(m.manifest) as AppManifest).name]));
      return { apps, mappings, names };
    },
    async inspect(raw) {
      const invalid = (detail: string) => new ProblemError('backup.part.invalid', { part: 'apps' }, { detail });
      if (typeof raw !== 'object' || raw === null) throw invalid('not an object');
      const value = raw as Record<string, unknown>;
      const apps = await checkRows(db, 'apps', 'apps', value.apps, settingColumns);
      if (!apps.every((a) => typeof a.id === 'string')) throw invalid('an app entry has no id');
      const mappings = await checkRows(db, 'apps', 'app_storage_mappings', value.mappings, mappingColumns);
      for (const m of mappings) {
        // The same folder rule as mapping by hand: a path inside the share, no `..`, no absolute path.
        const segments = typeof m.path === 'string' ? parseRelPath(m.path) : null;
        if (segments === null || segments.join('/') !== m.path || (m.access !== 'read' && m.access !== 'readWrite'))
          throw invalid(`the mapping ${String(m.app_id)}/${String(m.storage_id)} is not a folder of a share`);
      }
      const names = value.names ?? {};
      if (typeof names !== 'object' || names === null || !Object.values(names).every((n) => typeof n === 'string' && n.length <= 200))
        throw invalid('the app names are not a list of names');
      const data = { apps, mappings, names: names as Record<string, string> };
      const installed = new Set((await db.query<{ id: string }>('SELECT id FROM apps', { type: QueryTypes.SELECT })).map((r) => r.id));
      const skipped = apps.filter((a) => !installed.has(String(a.id))).map((a) => nameOf(data, a.id));
      return { data, counts: { apps: apps.length, storageMappings: mappings.length }, skipped };
    },
    async restore(data, transaction) {
      const rows = await db.query<{ id: string; manifest: string }>('SELECT id, manifest FROM apps', { type: QueryTypes.SELECT, transaction });
      const installed = new Map(rows.map((r) => [r.id, JSON.parse(r.manifest) as AppManifest]));
      const skipped: string[] = [];
      for (const app of data.apps) {
        if (!installed.has(String(app.id))) {
          skipped.push(nameOf(data, app.id));
          continue;
        }
        await db.query('UPDATE apps SET log_level = ?, update_policy = ?, revoked = ? WHERE id = ?', {
          replacements: [app.log_level ?? 'info', app.update_policy ?? null, app.revoked ?? '[]', app.id],
          transaction,
        });
      }
      const shares = await idsOf(db, 'shares', transaction);
      await db.query('DELETE FROM app_storage_mappings', { transaction });
      for (const m of data.mappings) {
        const manifest = installed.get(String(m.app_id));
        if (!manifest) continue;
        // As by hand: the installed version must still ask for the folder, at least as widely, and the share must be here.
        const request = manifest.storage.find((s) => s.storageId === m.storage_id);
        if (!request || (request.access === 'read' && m.access === 'readWrite') || !shares.has(Number(m.share_id))) {
          skipped.push(`${manifest.name}: ${String(m.storage_id)}`);
          continue;
        }
        await db.query('INSERT INTO app_storage_mappings (app_id, storage_id, share_id, path, access) VALUES (?, ?, ?, ?, ?)', {
          replacements: [m.app_id, m.storage_id, m.share_id, m.path, m.access],
          transaction,
        });
      }
      return { skipped };
    },
  };
}
