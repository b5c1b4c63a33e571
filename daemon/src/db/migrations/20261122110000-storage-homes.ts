import { DataTypes } from 'sequelize';
import type { MigrationContext } from '../migration-types.ts';

export async function up({ qi, transaction }: MigrationContext): Promise<void> {
  // A home is a share on a dataset of the home pool; it outlives its user (user_id null, folder renamed).
  await qi.createTable(
    'storage_homes',
    {
      share_id: { type: DataTypes.INTEGER, primaryKey: true, references: { model: 'shares', key: 'id' }, onDelete: 'CASCADE' },
      // No foreign key: the home stays when the user goes.
      user_id: { type: DataTypes.INTEGER, allowNull: true, unique: true },
      username: { type: DataTypes.TEXT, allowNull: false },
      uid: { type: DataTypes.INTEGER, allowNull: false },
      folder: { type: DataTypes.TEXT, allowNull: false },
      dataset: { type: DataTypes.TEXT, allowNull: false, unique: true },
      // null follows the default quota, 0 means none.
      quota_bytes: { type: DataTypes.INTEGER, allowNull: true },
    },
    { transaction },
  );
  await qi.createTable(
    'storage_home_settings',
    {
      id: { type: DataTypes.INTEGER, primaryKey: true },
      home_pool: { type: DataTypes.TEXT, allowNull: true },
      default_quota_bytes: { type: DataTypes.INTEGER, allowNull: true },
    },
    { transaction },
  );
}
