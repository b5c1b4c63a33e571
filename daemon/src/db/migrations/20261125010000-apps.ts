import { DataTypes } from 'sequelize';
import type { MigrationContext } from '../migration-types.ts';

export async function up({ qi, transaction }: MigrationContext): Promise<void> {
  // Installed apps: the manifest of the installed version is the truth of what it asked for.
  await qi.createTable(
    'apps',
    {
      id: { type: DataTypes.TEXT, primaryKey: true },
      version: { type: DataTypes.TEXT, allowNull: false },
      data_version: { type: DataTypes.INTEGER, allowNull: false },
      manifest: { type: DataTypes.TEXT, allowNull: false },
      state: { type: DataTypes.TEXT, allowNull: false },
      // Permissions an administrator revoked (JSON array): they stay revoked across updates.
      revoked: { type: DataTypes.TEXT, allowNull: false, defaultValue: '[]' },
      log_level: { type: DataTypes.TEXT, allowNull: false, defaultValue: 'info' },
      update_policy: { type: DataTypes.TEXT, allowNull: true },
      // What a rollback returns to: the manifest before the last update and the snapshot taken before it.
      previous_manifest: { type: DataTypes.TEXT, allowNull: true },
      previous_snapshot: { type: DataTypes.TEXT, allowNull: true },
      installed_at: { type: DataTypes.TEXT, allowNull: false },
      updated_at: { type: DataTypes.TEXT, allowNull: false },
    },
    { transaction },
  );
  // Each app's own system account and where its data lives. Rows outlive an uninstall: a uid is
  // never given to another app, and an app installed again finds its kept data and account.
  await qi.createTable(
    'app_accounts',
    {
      app_id: { type: DataTypes.TEXT, primaryKey: true },
      uid: { type: DataTypes.INTEGER, allowNull: false, unique: true },
      dataset: { type: DataTypes.TEXT, allowNull: true },
    },
    { transaction },
  );
  await qi.createTable(
    'app_storage_mappings',
    {
      app_id: { type: DataTypes.TEXT, primaryKey: true },
      storage_id: { type: DataTypes.TEXT, primaryKey: true },
      share_id: { type: DataTypes.INTEGER, allowNull: false },
      path: { type: DataTypes.TEXT, allowNull: false },
      access: { type: DataTypes.TEXT, allowNull: false },
    },
    { transaction },
  );
  // One row: the pool every app's data lives on, set by the first install.
  await qi.createTable('app_settings', { id: { type: DataTypes.INTEGER, primaryKey: true }, pool: { type: DataTypes.TEXT, allowNull: true } }, { transaction });
}
