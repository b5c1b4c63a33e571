import { DataTypes } from 'sequelize';
import type { MigrationContext } from '../migration-types.ts';

export async function up({ qi, transaction }: MigrationContext): Promise<void> {
  // Store catalogs: project ones (built_in) are added at start from the daemon's list; custom ones by administrators.
  await qi.createTable(
    'store_catalogs',
    {
      key: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      catalog_id: { type: DataTypes.TEXT, allowNull: false, unique: true },
      name: { type: DataTypes.TEXT, allowNull: false },
      url: { type: DataTypes.TEXT, allowNull: false, unique: true },
      built_in: { type: DataTypes.BOOLEAN, allowNull: false },
      enabled: { type: DataTypes.BOOLEAN, allowNull: false },
      // user:token for packages and images at https addresses of a private catalog; never logged or answered.
      read_token: { type: DataTypes.TEXT, allowNull: true },
      state: { type: DataTypes.TEXT, allowNull: false },
      last_error: { type: DataTypes.TEXT, allowNull: true },
      last_fetch_at: { type: DataTypes.TEXT, allowNull: true },
      verified_at: { type: DataTypes.TEXT, allowNull: true },
      commit_id: { type: DataTypes.TEXT, allowNull: true },
      // The branch of the verified copy: a channel switch shows which one is in use until the new one is fetched.
      branch: { type: DataTypes.TEXT, allowNull: true },
    },
    { transaction },
  );
  // One row: the policy, the daily time and the channel, and this box's own delay (chosen once, kept).
  await qi.createTable(
    'store_settings',
    {
      id: { type: DataTypes.INTEGER, primaryKey: true },
      policy: { type: DataTypes.TEXT, allowNull: false },
      daily_time: { type: DataTypes.TEXT, allowNull: false },
      channel: { type: DataTypes.TEXT, allowNull: false },
      delay_minutes: { type: DataTypes.INTEGER, allowNull: false },
      last_check_at: { type: DataTypes.TEXT, allowNull: true },
    },
    { transaction },
  );
}
