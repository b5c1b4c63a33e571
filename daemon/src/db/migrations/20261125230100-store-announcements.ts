import { DataTypes } from 'sequelize';
import type { MigrationContext } from '../migration-types.ts';

export async function up({ qi, transaction }: MigrationContext): Promise<void> {
  // The app versions the check announced to the administrators: each one once, a newer one again.
  await qi.createTable(
    'store_announcements',
    {
      app_id: { type: DataTypes.TEXT, allowNull: false, primaryKey: true },
      version: { type: DataTypes.TEXT, allowNull: false, primaryKey: true },
      announced_at: { type: DataTypes.TEXT, allowNull: false },
    },
    { transaction },
  );
}
