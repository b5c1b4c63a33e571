import { DataTypes } from 'sequelize';
import type { MigrationContext } from '../migration-types.ts';

export async function up({ qi, transaction }: MigrationContext): Promise<void> {
  // The System area's settings, one row per group (`region`, later `time`, ...), each a JSON value.
  await qi.createTable(
    'system_settings',
    {
      key: { type: DataTypes.TEXT, primaryKey: true },
      value: { type: DataTypes.TEXT, allowNull: false },
      updated_at: { type: DataTypes.TEXT, allowNull: false },
    },
    { transaction },
  );
}
