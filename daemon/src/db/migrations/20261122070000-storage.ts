import { DataTypes } from 'sequelize';
import type { MigrationContext } from '../migration-types.ts';

export async function up({ qi, transaction }: MigrationContext): Promise<void> {
  // Scrub per pool (`scrub:<pool>`) and the SMART self-test schedule (`smart`).
  await qi.createTable(
    'storage_schedules',
    {
      key: { type: DataTypes.TEXT, primaryKey: true },
      frequency: { type: DataTypes.TEXT, allowNull: false },
      last_run_at: { type: DataTypes.TEXT, allowNull: true },
      next_run_at: { type: DataTypes.TEXT, allowNull: true },
    },
    { transaction },
  );
  await qi.createTable(
    'storage_snapshot_schedules',
    {
      dataset: { type: DataTypes.TEXT, primaryKey: true },
      kind: { type: DataTypes.TEXT, primaryKey: true },
      enabled: { type: DataTypes.BOOLEAN, allowNull: false },
      keep: { type: DataTypes.INTEGER, allowNull: false },
    },
    { transaction },
  );
  await qi.createTable(
    'storage_alert_mutes',
    {
      user_id: { type: DataTypes.INTEGER, primaryKey: true, references: { model: 'users', key: 'id' }, onDelete: 'CASCADE' },
      key: { type: DataTypes.TEXT, primaryKey: true },
      // The severity muted: a more severe alert of the same key shows again.
      severity: { type: DataTypes.TEXT, allowNull: false },
    },
    { transaction },
  );
}
